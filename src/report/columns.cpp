#include "src/report/columns.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace gpubench {

std::string text_columns(const Cells& header, const std::vector<Cells>& rows, const std::vector<bool>& left,
                         bool rule) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const Cells& cells) {
    std::string s;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const bool last = c + 1 == cells.size();
      if (left[c] && last) s += cells[c];  // no trailing blanks
      else s += left[c] ? fmt::format("{:<{}}", cells[c], width[c]) : fmt::format("{:>{}}", cells[c], width[c]);
      s += last ? "\n" : "  ";
    }
    return s;
  };
  std::string out = line(header);
  if (rule) {
    std::size_t total = 0;
    for (auto w : width) total += w + 2;
    out += std::string(total - 2, '-') + "\n";
  }
  for (const auto& row : rows) out += line(row);
  return out;
}

std::string markdown_columns(const Cells& header, const std::vector<Cells>& rows, const std::vector<bool>& left) {
  // A '|' inside a cell would end it, and a '\' escape what follows:
  // markdown reads "\|" and "\\" as the characters.
  auto line = [](const Cells& cells) {
    std::string s = "|";
    for (const std::string& cell : cells) {
      s += ' ';
      for (const char c : cell) {
        if (c == '|' || c == '\\') s += '\\';
        s += c;
      }
      s += " |";
    }
    return s + "\n";
  };
  std::string out = line(header) + "|";
  for (std::size_t c = 0; c < header.size(); ++c) out += left[c] ? "---|" : "---:|";
  out += "\n";
  for (const auto& row : rows) out += line(row);
  return out;
}

}  // namespace gpubench
