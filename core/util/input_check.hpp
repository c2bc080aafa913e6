// Input hardening (design.md §10): one place each for the checks every reader shares, so a config,
// published.yaml, a dataset registry entry and a cell file are held to the same rules.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace YAML {
class Node;
}

namespace dpf {

// Largest config / published.yaml / registry entry read (1 MiB): a bigger file is refused before
// parsing (yaml-cpp needs tens of times the text in memory).
inline constexpr std::size_t kMaxConfigBytes = 1u << 20;
// Longest value echoed in a message; longer ones are cut to this and say their size.
inline constexpr std::size_t kMaxEchoChars = 200;

// `s` cut to kMaxEchoChars with "… (N bytes)" appended when longer; bytes that are not printable
// ASCII or UTF-8 are shown as \xNN.
std::string clip(const std::string& s);

// Ids used as path parts or file names (paper, experiment, dataset id[:variant]): 1..64 characters of
// [A-Za-z0-9._:-], starting with a letter or digit, no "..". Fails naming `where`.
void check_id(const std::string& id, const std::string& where);

// Fails naming `where` unless `s` is valid UTF-8 without control characters (tab allowed when
// `allow_tab`; newlines only when `multiline`).
void check_text(const std::string& s, const std::string& where, bool multiline = false);

// root/part1/part2/...: every part must be relative, without ".." or empty components, and the result
// must stay inside root (lexically). Fails naming the offending part.
std::string contained_path(const std::string& root, const std::vector<std::string>& parts);

// Reads a text file of at most `max_bytes`; fails naming the file and its size when larger.
std::string read_text_limited(const std::string& path, std::size_t max_bytes, const std::string& what);

// Parses YAML text, rejecting invalid UTF-8 and duplicate keys at any depth (yaml-cpp keeps both and
// lookups see the first): the message names the file, the key and both lines.
YAML::Node load_yaml_strict(const std::string& text, const std::string& path);
YAML::Node load_yaml_file_strict(const std::string& path);

}  // namespace dpf
