"""The URN:LEX toolkit (RFC 9676): validate, parse, normalize, compare and resolve names.

Errors of a name raise lexlink.Error with code "invalid_argument" ("limit_exceeded" over
max_length); its message names the byte where reading stopped and what was expected there, and
its col is that byte's position counted from 1.
"""

import json as _json
from dataclasses import dataclass as _dataclass
from typing import Any as _Any, Dict as _Dict

from ._lexlink import urn as _urn

validate = _urn.validate
is_valid = _urn.is_valid
normalize = _urn.normalize
equal = _urn.equal
resolve = _urn.resolve


@_dataclass(frozen=True)
class UrnParts:
    """The parts of a name, read from its canonical form."""

    canonical: str  # the canonical form (normalize)
    jurisdiction: str  # "it", "eu", "br" ...
    work: str  # the name at work level: urn:lex:JURISDICTION:WORK
    document_name: str  # the name without ~partition, ?query and #fragment
    partition: str  # the partition id, without "~" ("" when none)
    year: str  # of the first date, or a four-digit period; "" otherwise
    year_only: bool  # the details give a year, not a date (a partial name)
    structure: _Dict[str, _Any]  # the whole structure, as `lexlink urn parse` prints it


def parse(name, **options) -> UrnParts:
    """The parts of a name; options as validate()."""
    parts = _urn.parse(name, **options)
    structure = _json.loads(parts.pop("json"))
    return UrnParts(structure=structure, **parts)


__all__ = ["UrnParts", "equal", "is_valid", "normalize", "parse", "resolve", "validate"]
