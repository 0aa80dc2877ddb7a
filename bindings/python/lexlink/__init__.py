"""lexlink: citations of sources of law found in text, HTML and XML, named with URN:LEX (RFC 9676)
and linked, every other byte of the document unchanged.

    import lexlink
    x = lexlink.Extractor()                      # every jurisdiction of the data folder
    for c in x.extract("ai sensi della legge 3 aprile 2000, n. 56"):
        print(c.start, c.end, c.urn)             # str indices for a str, byte offsets for bytes
    html = x.markup("<p>legge 3 aprile 2000, n. 56</p>")
    assert lexlink.unmark(html) == "<p>legge 3 aprile 2000, n. 56</p>"

An Extractor is immutable once loaded: threads share one, and the GIL is released while a
document is read. Errors are lexlink.Error (code, message, file, line, col). The module is a thin
layer over the C++ library (lexlink/lexlink.h); the manual is docs/python.md.
"""

import os as _os

from . import _lexlink

# Installed, the package finds the data folder installed with it (_install.py, written by
# `cmake --install`, holds its path relative to the package); from the build tree, the library's
# default (the source tree).
try:
    from ._install import DATA_FROM_PACKAGE as _DATA_FROM_PACKAGE
except ImportError:  # the build tree
    _DATA_FROM_PACKAGE = None
if _DATA_FROM_PACKAGE is not None:
    _data = _os.path.normpath(_os.path.join(_os.path.dirname(__file__), _DATA_FROM_PACKAGE))
    if _os.path.isdir(_os.path.join(_data, "grammars")):
        _lexlink._set_package_data(_data)

from ._lexlink import (  # noqa: F401,E402
    Citation,
    Error,
    Extractor,
    LinkOutcome,
    __version__,
    default_data_folder,
    jurisdictions,
    unmark,
)
from . import urn  # noqa: F401,E402

__all__ = [
    "Citation",
    "Error",
    "Extractor",
    "LinkOutcome",
    "__version__",
    "default_data_folder",
    "jurisdictions",
    "unmark",
    "urn",
]
