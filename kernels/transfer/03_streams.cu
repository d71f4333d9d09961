// streams — lecture 21: the arrays cut into chunks, chunk k on stream
// k mod --streams with cudaMemcpyAsync from pinned memory, so that one
// chunk's copy in, another's add and a third's copy out run at once on the
// two copy engines and the SMs. The end-to-end time approaches the slower
// direction's copy time alone.
// It costs four host calls per chunk (three copies and a launch) and a stream
// count to choose: with one stream it is pinned again.
#include "kernels/transfer/transfer_common.hpp"

GPUBENCH_TRANSFER_STEP(streams, Ladder::course, "chunks over several streams: copies in, adds and copies out overlap",
                       Memory::pinned, &pipeline, nullptr)
