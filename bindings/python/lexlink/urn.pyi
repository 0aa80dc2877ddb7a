# Type stubs of lexlink.urn (bindings/python/lexlink/urn.py over module.cpp's urn submodule).
from dataclasses import dataclass
from typing import Any, Dict, Literal, Optional, Union

Name = Union[str, bytes]

@dataclass(frozen=True)
class UrnParts:
    canonical: str
    jurisdiction: str
    work: str
    document_name: str
    partition: str
    year: str
    year_only: bool
    structure: Dict[str, Any]

def validate(
    name: Name,
    *,
    iri: bool = False,
    allow_empty_authority: bool = False,
    allow_unnumbered: bool = False,
    max_length: int = 65536,
) -> None: ...
def is_valid(
    name: Name,
    *,
    iri: bool = False,
    allow_empty_authority: bool = False,
    allow_unnumbered: bool = False,
    max_length: int = 65536,
) -> bool: ...
def parse(
    name: Name,
    *,
    iri: bool = False,
    allow_empty_authority: bool = False,
    allow_unnumbered: bool = False,
    max_length: int = 65536,
) -> UrnParts: ...
def normalize(
    name: Name,
    *,
    fold: bool = False,
    iri: bool = False,
    allow_empty_authority: bool = False,
    allow_unnumbered: bool = False,
    max_length: int = 65536,
) -> str: ...
def equal(
    a: Name,
    b: Name,
    *,
    iri: bool = False,
    allow_empty_authority: bool = False,
    allow_unnumbered: bool = False,
    max_length: int = 65536,
) -> bool: ...
def resolve(
    name: Name, *, partition_sep: Literal["#", "~"] = "#", data: Optional[str] = None
) -> str: ...
