"""scripts/sanitize_steps.py with the real gpubench (its `list` and `run --dry-run` need no GPU)
and a stand-in compute-sanitizer that keeps each config it is given, exits 1 for the step named
in FAKE_FAILING_STEP and sleeps a minute for FAKE_SLOW_STEP's. Run by ctest
(tests/CMakeLists.txt), which sets GPUBENCH_BIN and GPUBENCH_SOURCE_DIR."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

SOURCE = os.environ.get("GPUBENCH_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("GPUBENCH_BIN", os.path.join(SOURCE, "build", "gpubench"))
SCRIPT = os.path.join(SOURCE, "scripts", "sanitize_steps.py")
CONFIG = os.path.join(SOURCE, "configs", "sanitize-gemm.json")

FAKE_SANITIZER = """#!/usr/bin/env python3
import json, os, shutil, sys, time
config = sys.argv[-1]
step = json.load(open(config))["benchmarks"][0]["variants"][0]
shutil.copy(config, os.path.join(os.environ["FAKE_KEPT"], os.path.basename(config)))
print("fake", " ".join(sys.argv[1:-1]), flush=True)
if step == os.environ.get("FAKE_SLOW_STEP"):
    time.sleep(60)
sys.exit(1 if step == os.environ.get("FAKE_FAILING_STEP") else 0)
"""


def read(path):
    with open(path) as f:
        return f.read()


class SanitizeStepsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.kept = os.path.join(self.tmp.name, "kept")
        os.mkdir(self.kept)
        fake = os.path.join(self.tmp.name, "compute-sanitizer")
        with open(fake, "w") as f:
            f.write(FAKE_SANITIZER.replace("/usr/bin/env python3", sys.executable))
        os.chmod(fake, 0o755)
        self.env = dict(os.environ, PATH=self.tmp.name + os.pathsep + os.environ["PATH"], FAKE_KEPT=self.kept)
        self.out = os.path.join(self.tmp.name, "logs")

    def tearDown(self):
        self.tmp.cleanup()

    def run_script(self, *args, config=CONFIG, out=None, failing="", slow=""):
        env = dict(self.env, FAKE_FAILING_STEP=failing, FAKE_SLOW_STEP=slow)
        return subprocess.run([sys.executable, SCRIPT, config, "--bin", BIN, "--out", out or self.out, "--jobs", "2", *args],
                              capture_output=True, text=True, env=env)

    def steps(self):
        """Every gemm variant `gpubench list` names but the library and host baselines."""
        listing = subprocess.run([BIN, "list", "gemm"], capture_output=True, text=True, check=True).stdout
        names = [line.split()[0] for line in listing.splitlines() if line.startswith("  ")]
        return [n for n in names if n not in ("cublas", "cublas_tf32", "cublas_bf16", "cpu")]

    def test_every_step_but_the_baselines_runs_alone_at_every_size_with_one_sample(self):
        done = self.run_script()
        self.assertEqual(done.returncode, 0, done.stderr)
        steps = self.steps()
        self.assertIn("stream_k", steps)
        self.assertEqual(sorted(os.listdir(self.out)), sorted(f"gemm-{s}.{x}" for s in steps for x in ("txt", "json")))
        self.assertEqual(read(os.path.join(self.out, "gemm-stream_k.json")), read(os.path.join(self.kept, "gemm-stream_k.json")))
        config = json.loads(read(os.path.join(self.kept, "gemm-stream_k.json")))
        self.assertEqual(len(config["benchmarks"]), 9)
        for b in config["benchmarks"]:
            self.assertEqual(b["variants"], ["stream_k"])
            self.assertEqual(b["measure"], {"min_samples": 1, "min_time": 0, "warmup": 0})
        self.assertEqual(config["defaults"]["params"], {"seed": 42})
        log = read(os.path.join(self.out, "gemm-stream_k.txt"))
        self.assertIn("fake --tool racecheck --error-exitcode 99", log)
        self.assertRegex(log, r"exit 0 after \d+ s\n$")
        self.assertIn(f"{len(steps)} of {len(steps)} clean (racecheck)", done.stdout)

    def test_a_failing_step_fails_the_run_and_is_named(self):
        done = self.run_script("--steps", "naive,smem_tiled", failing="smem_tiled")
        self.assertEqual(done.returncode, 1)
        self.assertIn("gemm-smem_tiled: exit 1", done.stdout)
        self.assertIn("1 of 2 clean", done.stdout)

    def test_a_step_past_the_timeout_is_stopped_and_fails_the_run(self):
        start = time.monotonic()
        done = self.run_script("--steps", "naive,coalesced", "--timeout", "2", slow="coalesced")
        self.assertLess(time.monotonic() - start, 30)
        self.assertEqual(done.returncode, 1)
        self.assertIn("gemm-coalesced: exit stopped by --timeout", done.stdout)
        self.assertIn("gemm-naive: exit 0", done.stdout)

    def test_per_size_runs_one_benchmark_a_process(self):
        done = self.run_script("--steps", "stream_k", "--per-size", "--tool", "memcheck")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(sorted(os.listdir(self.kept)), sorted(f"gemm-stream_k-{i}.json" for i in range(9)))
        config = json.loads(read(os.path.join(self.kept, "gemm-stream_k-6.json")))
        self.assertEqual([b["params"] for b in config["benchmarks"]], [{"m": 2100, "n": 2100, "k": 300}])
        self.assertIn("fake --tool memcheck", read(os.path.join(self.out, "gemm-stream_k-6.txt")))

    def test_benchmarks_keeps_the_benchmarks_at_those_indices(self):
        done = self.run_script("--steps", "stream_k", "--benchmarks", "0-1,6", "--per-size")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(sorted(os.listdir(self.kept)), [f"gemm-stream_k-{i}.json" for i in (0, 1, 6)])
        done = self.run_script("--steps", "naive", "--benchmarks", "8,7")
        self.assertEqual(done.returncode, 0, done.stderr)
        config = json.loads(read(os.path.join(self.kept, "gemm-naive.json")))
        self.assertEqual([b["params"]["m"] for b in config["benchmarks"]], [2100, 2500])
        histogram = os.path.join(SOURCE, "configs", "sanitize-histogram.json")
        baselines = os.path.join(self.tmp.name, "baselines.json")
        with open(baselines, "w") as f:
            json.dump({"benchmarks": [{"pattern": "gemm", "variants": "cublas", "params": {"m": 3}},
                                      {"pattern": "gemm", "params": {"m": 4}}]}, f)
        done = self.run_script("--benchmarks", "0", config=baselines)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(done.stderr, "sanitize_steps.py: nothing to check: the benchmarks --benchmarks keeps "
                                      "run no step of their ladders, only baselines\n")
        done = self.run_script("--steps", "byte_values", "--benchmarks", "1", config=histogram)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(done.stderr, "sanitize_steps.py: no benchmark --benchmarks keeps runs byte_values: "
                                      "their variants leave it out\n")

    def test_a_config_with_a_byte_order_mark_is_read_as_gpubench_reads_it(self):
        config = os.path.join(self.tmp.name, "bom.json")
        with open(CONFIG) as f, open(config, "w", encoding="utf-8-sig") as out:
            out.write(f.read())
        done = self.run_script("--steps", "naive", config=config)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(json.loads(read(os.path.join(self.kept, "gemm-naive.json")))["benchmarks"]), 9)

    def test_a_step_runs_only_at_the_benchmarks_whose_variants_name_it(self):
        histogram = os.path.join(SOURCE, "configs", "sanitize-histogram.json")
        done = self.run_script("--steps", "per_lane,byte_values", config=histogram)
        self.assertEqual(done.returncode, 0, done.stderr)
        samples = lambda name: [b["params"]["sample"] for b in json.loads(read(os.path.join(self.kept, name)))["benchmarks"]]
        self.assertEqual(samples("histogram-byte_values.json"), ["uint8"])
        self.assertEqual(samples("histogram-per_lane.json"), ["uint8", ["uint16", "int32", "float32"]])
        self.assertIn("2 of 2 clean", done.stdout)

    def test_a_step_no_benchmark_runs_is_one_line(self):
        config = os.path.join(self.tmp.name, "two.json")
        with open(config, "w") as f:
            json.dump({"benchmarks": [{"pattern": "gemm", "variants": "naive,coalesced", "params": {"m": 3}}]}, f)
        self.assertEqual(self.run_script("--steps", "coalesced", config=config).returncode, 0)
        done = self.run_script("--steps", "naive,stream_k", config=config)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(done.stderr, "sanitize_steps.py: no benchmark of the config runs stream_k: their variants leave it out\n")

    def test_a_step_at_a_point_it_cannot_take_stops_the_script_before_anything_runs(self):
        config = os.path.join(self.tmp.name, "uint16.json")
        with open(config, "w") as f:
            json.dump({"benchmarks": [{"pattern": "histogram", "params": {"n": 5, "sample": "uint16"}}]}, f)
        done = self.run_script("--steps", "per_lane,byte_values", config=config)
        self.assertEqual(done.returncode, 2)
        self.assertRegex(done.stderr, r"^sanitize_steps.py: histogram-byte_values: gpubench: error: .*takes uint8 samples only; "
                                      r"leave the step out of that benchmark's variants\n$")
        self.assertEqual(os.listdir(self.kept), [])
        self.assertFalse(os.path.exists(self.out))

    def test_bad_options_and_a_run_with_nothing_to_check_are_one_line(self):
        baselines = os.path.join(self.tmp.name, "baselines.json")
        with open(baselines, "w") as f:
            json.dump({"benchmarks": [{"pattern": "gemm", "variants": "cublas,cpu", "params": {"m": 3}}]}, f)
        true = shutil.which("true")
        for args, config, message in [
            ((), baselines, "nothing to check: the config's benchmarks run no step of their ladders, only baselines"),
            (("--bin", true), CONFIG, f"{true} list gemm listed no steps: is it gpubench?"),
            (("--timeout", "0"), CONFIG, "--timeout must be a positive number of seconds, not 0.0"),
            (("--steps", ""), CONFIG, "--steps '': a comma-separated list of step names, none empty"),
            (("--benchmarks", "2-x"), CONFIG,
             "--benchmarks '2-x': a comma-separated list of indices and ranges from 0, e.g. 0-8,10"),
            (("--benchmarks", "3-1"), CONFIG,
             "--benchmarks '3-1': a comma-separated list of indices and ranges from 0, e.g. 0-8,10"),
            (("--benchmarks", "0,9"), CONFIG, "--benchmarks '0,9': the config has 9 benchmarks, 0 to 8"),
        ]:
            done = self.run_script(*args, config=config)
            self.assertEqual(done.returncode, 2, args)
            self.assertEqual(done.stderr, f"sanitize_steps.py: {message}\n")
            self.assertFalse(os.path.exists(self.out))
        done = self.run_script("--tool", "bogus")
        self.assertEqual(done.returncode, 2)
        self.assertIn("invalid choice: 'bogus' (choose from 'memcheck', 'racecheck', 'synccheck', 'initcheck')", done.stderr)

    def test_an_unknown_step_is_one_line_listing_the_steps(self):
        done = self.run_script("--steps", "stream_k,fastest")
        self.assertEqual(done.returncode, 2)
        self.assertRegex(done.stderr, r"^sanitize_steps.py: not a step of the config's patterns: fastest; steps: naive, ")
        self.assertEqual(len(done.stderr.splitlines()), 1)
        self.assertFalse(os.path.exists(self.out))

    def test_an_out_folder_that_cannot_be_made_is_one_line(self):
        blocker = os.path.join(self.tmp.name, "a-file")
        open(blocker, "w").close()
        done = self.run_script(out=os.path.join(blocker, "logs"))
        self.assertEqual(done.returncode, 2)
        self.assertRegex(done.stderr, r"^sanitize_steps.py: --out .*a-file/logs: Not a directory\n$")
        self.assertEqual(os.listdir(self.kept), [])

    def test_a_malformed_config_is_gpubench_s_one_line(self):
        bad = os.path.join(self.tmp.name, "bad.json")
        with open(bad, "w") as f:
            json.dump({"benchmarks": [{"pattern": "gemm", "params": {"m": -1}}]}, f)
        done = self.run_script(config=bad)
        self.assertEqual(done.returncode, 2)
        self.assertIn("benchmarks[0].params.m", done.stderr)
        self.assertEqual(len(done.stderr.splitlines()), 1)
        self.assertEqual(os.listdir(self.kept), [])


if __name__ == "__main__":
    unittest.main()
