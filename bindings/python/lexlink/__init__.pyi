# Type stubs of the lexlink module (bindings/python/module.cpp); tests/python checks that they
# name exactly what the module defines.
import os
from typing import List, Literal, Optional, Sequence, Tuple, TypeVar, Union, overload

from . import urn as urn

__version__: str

Doc = TypeVar("Doc", str, bytes)
Format = Literal["auto", "text", "html", "xml"]

class Error(Exception):
    code: str  # invalid_argument, data_error, not_found, io_error, limit_exceeded, unsupported, internal
    message: str
    file: Optional[str]
    line: int  # 1-based; 0 when unknown
    col: int

class Citation:
    @property
    def start(self) -> int: ...  # str index for a str document, byte offset for bytes
    @property
    def end(self) -> int: ...
    @property
    def byte_start(self) -> int: ...  # in the document's bytes (UTF-8 for a str)
    @property
    def byte_end(self) -> int: ...
    @property
    def char_start(self) -> int: ...  # in Unicode code points
    @property
    def char_end(self) -> int: ...
    @property
    def utf16_start(self) -> int: ...  # in UTF-16 code units (JavaScript, LSP)
    @property
    def utf16_end(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def urn(self) -> str: ...
    @property
    def work(self) -> str: ...
    @property
    def jurisdiction(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def complete(self) -> bool: ...
    @property
    def inner(self) -> bool: ...

class LinkOutcome:
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def byte_start(self) -> int: ...
    @property
    def byte_end(self) -> int: ...
    @property
    def urn(self) -> str: ...
    @property
    def rule(self) -> str: ...
    @property
    def linked(self) -> bool: ...
    @property
    def reason(self) -> str: ...
    @property
    def detail(self) -> str: ...
    @property
    def href(self) -> str: ...

class Extractor:
    def __init__(
        self,
        jurisdiction: Union[str, Sequence[str]] = "auto",
        data: Optional[str] = None,
        *,
        reference_engine: bool = False,
        cache: Optional[str] = None,
        max_document_bytes: int = 268435456,
    ) -> None: ...
    @property
    def jurisdictions(self) -> List[str]: ...
    @property
    def data_folder(self) -> str: ...
    def extract(
        self,
        document: Union[str, bytes],
        *,
        format: Format = "auto",
        encoding: Optional[str] = None,
        self_urn: Optional[str] = None,
    ) -> List[Citation]: ...
    def extract_file(
        self,
        path: str,
        *,
        format: Format = "auto",
        encoding: Optional[str] = None,
        self_urn: Optional[str] = None,
    ) -> List[Citation]: ...
    @overload
    def markup(
        self,
        document: Doc,
        *,
        format: Format = "auto",
        encoding: Optional[str] = None,
        self_urn: Optional[str] = None,
        profile: str = "auto",
        href: Literal["urn", "resolver"] = "urn",
        partition_sep: Optional[Literal["~", "#"]] = None,
        outcomes: Literal[False] = False,
    ) -> Doc: ...
    @overload
    def markup(
        self,
        document: Doc,
        *,
        format: Format = "auto",
        encoding: Optional[str] = None,
        self_urn: Optional[str] = None,
        profile: str = "auto",
        href: Literal["urn", "resolver"] = "urn",
        partition_sep: Optional[Literal["~", "#"]] = None,
        outcomes: Literal[True],
    ) -> Tuple[Doc, List[LinkOutcome]]: ...
    def unmark(self, document: Doc) -> Doc: ...

def default_data_folder() -> str: ...
def jurisdictions(data: Optional[str] = None) -> List[str]: ...
def unmark(document: Doc) -> Doc: ...
