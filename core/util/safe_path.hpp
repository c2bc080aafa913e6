// Input hardening, one place for every reader (design.md §10): ids that become path components, and
// output paths that must stay inside the results root.
#pragma once
#include <initializer_list>
#include <string>
#include <string_view>

namespace dpf {

// An id used as a path component (paper, experiment): 1 to 100 characters of [A-Za-z0-9._-], not
// starting with '.' or '-' (so no "..", no hidden files, no options), no slash, no control character.
bool is_safe_id(std::string_view s);
// Throws dpf::Error "<where>: '<value>' is not a safe id ..." (the value shown escaped and capped).
void require_safe_id(std::string_view s, const std::string& where);
// root/parts..., lexically normalised; throws dpf::Error naming the parts unless it stays inside root.
std::string path_inside(const std::string& root, std::initializer_list<std::string> parts);
// A value for a message: non-printable bytes escaped as \xNN, at most `max` characters
// ("… (N bytes)" after the cut).
std::string shown(std::string_view s, std::size_t max = 200);

}  // namespace dpf
