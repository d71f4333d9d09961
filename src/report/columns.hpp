// Tables as text: aligned columns for a terminal, or markdown.
#pragma once

#include <string>
#include <vector>

namespace gpubench {

using Cells = std::vector<std::string>;

// Columns padded to their widest cell and two spaces apart; column c is
// left-aligned where left[c] (text), right-aligned otherwise (numbers). With
// `rule`, a line of dashes under the header.
std::string text_columns(const Cells& header, const std::vector<Cells>& rows, const std::vector<bool>& left,
                         bool rule);

// A markdown table; right-aligned columns get `---:`.
std::string markdown_columns(const Cells& header, const std::vector<Cells>& rows, const std::vector<bool>& left);

}  // namespace gpubench
