// common/data_folder: the data folder (the one holding grammars/ and lexicons/): where lexlink
// finds it when the caller names none, and the jurisdictions it holds.
//
// The data folder is found, in order: $LEXLINK_DATA when set; the installed data, DATADIR/lexlink
// of the prefix lexlink was installed into, found from where the running library or program
// lies (so an installed tree may be moved: PREFIX/lib/liblexlink.so and PREFIX/bin/lexlink find
// PREFIX/share/lexlink); then the configured prefix's DATADIR/lexlink (CMAKE_INSTALL_PREFIX at
// build time: what a statically linked program, lying anywhere, finds); else the source tree
// lexlink was built from. A candidate counts only
// when it holds both grammars/ and lexicons/.
#pragma once

#include <string>
#include <vector>

namespace lexlink {

// The data folder to use when none is given (see above); the source tree's path when no
// candidate holds the data (a later load then says what is missing).
std::string default_data_dir();

// The jurisdictions of a data folder: the names of the folders of DATA/grammars, sorted; empty
// when there are none or no such folder.
std::vector<std::string> grammar_names(const std::string& data_dir);

// True when `dir` holds grammars/ and lexicons/.
bool is_data_dir(const std::string& dir);

}  // namespace lexlink
