// The ladders of a pattern whose steps are the course's lecture, then steps
// beyond it, then the library and CPU baselines (histogram, conv2d,
// stencil3d, map, transfer): one enum and the names results and tables use.
#pragma once

namespace gpubench {

enum class CourseLadder { course, modern, baseline };

inline const char* ladder_name(CourseLadder l) {
  switch (l) {
    case CourseLadder::course: return "course";
    case CourseLadder::modern: return "modern";
    case CourseLadder::baseline: break;
  }
  return "baseline";
}

}  // namespace gpubench
