// urn/structure_json: a parsed URN:LEX name as a JSON object, one key per element of the ABNF
// (jurisdiction and units, authority, measure, details, annexes, expression, manifestation,
// partition, query, fragment), as `lexlink urn parse` prints it and the library's urn_parse
// returns it. Every key is always there (null or [] when the name has no such element).
#pragma once

#include <nlohmann/json.hpp>

#include "urn/urn.h"

namespace lexlink::urn {

nlohmann::ordered_json structure_json(const Urn& urn);

}  // namespace lexlink::urn
