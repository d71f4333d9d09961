"""scripts/plot.py on committed H200 results (schema 1) and on small schema 2
documents written here: every chart is written as PNG and SVG, with a title
and labelled axes. Run by ctest (tests/CMakeLists.txt), which sets
GPUBENCH_BIN and GPUBENCH_SOURCE_DIR; without GPUBENCH_BIN the compare test,
which needs the binary, is skipped."""
import contextlib
import errno
import importlib.util
import io
import json
import lzma
import os
import subprocess
import tempfile
import unittest
from unittest import mock

SOURCE = os.environ.get("GPUBENCH_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
RESULTS = os.path.join(SOURCE, "results", "h200")

spec = importlib.util.spec_from_file_location("plot", os.path.join(SOURCE, "scripts", "plot.py"))
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)

DEVICE = {"name": "Test GPU", "theoretical_gbps": 5000.0, "copy_gbps": 4200.0, "fp32_peak_gflops": 60000.0}
GBPS = {"name": "gbps", "label": "GB/s", "unit": "GB/s", "digits": 1}
TFLOPS = {"name": "tflops", "label": "TFLOP/s", "unit": "TFLOP/s", "digits": 1}
PCT_COPY = {"name": "pct_of_copy", "label": "% copy", "unit": "%", "digits": 1}


def result(variant, ladder, median_ms, value, metric=GBPS, continues=None, params=None, verified=True,
           where="device", more=()):
    """One schema 2 result of the synthetic pattern `toy`."""
    return {"pattern": "toy", "variant": variant, "ladder": ladder, "continues": continues, "summary": "",
            "where": where, "tags": {}, "params": params or {"n": 1 << 20, "dtype": "int32", "seed": 42},
            "measure": {}, "l2": "flushed", "samples_ms": [median_ms], "median_ms": median_ms,
            "min_ms": median_ms, "max_ms": median_ms, "mean_ms": median_ms, "noise": 0.0,
            "primary": metric["name"], "metrics": [{**metric, "value": value}, *more], "verified": verified,
            "error": None if verified else "wrong answer"}


class PlotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, results, device=DEVICE):
        path = os.path.join(self.out, "toy.json")
        with open(path, "w") as f:
            json.dump({"schema_version": 2, "kind": "results", "tool": {"name": "gpubench"}, "device": device,
                       "l2": "flushed", "results": results}, f)
        return path

    def assert_written(self, paths):
        self.assertTrue(paths)
        self.assertEqual({os.path.splitext(p)[1] for p in paths}, {".png", ".svg"})
        for p in paths:
            self.assertGreater(os.path.getsize(p), 1000, p)

    def assert_labelled(self, fig):
        ax = fig.axes[0]
        self.assertTrue(ax.get_title())
        self.assertTrue(ax.get_xlabel())
        self.assertTrue(ax.get_ylabel())

    def ladder(self, path):
        self.assert_written(plot.plot_ladder(path, self.out))
        doc = plot.load(path, "results")
        fig = plot.ladder_figure(doc["results"], doc["device"])
        self.assert_labelled(fig)
        return fig.axes[0]

    # Committed results (schema 2), and schema 1 files kept under tests/data/v1.

    def test_ladder(self):
        ax = self.ladder(os.path.join(RESULTS, "reduce-2p22.json"))
        self.assertIn("NVIDIA H200", ax.get_title())
        self.assertIn("n=2^22", ax.get_title())
        self.assertIn("GB/s", ax.get_ylabel())
        svg = [p for p in os.listdir(self.out) if p.endswith(".svg")][0]
        with open(os.path.join(self.out, svg)) as f:
            self.assertIn("reduce ladder", f.read())  # text stays text in the SVG

    def test_v1_ladder_in_tflops(self):
        ax = self.ladder(os.path.join(SOURCE, "tests", "data", "v1", "gemm-4096.json"))
        self.assertIn("TFLOP/s", ax.get_ylabel())
        self.assertIn("FP32 CUDA-core peak 66.9 TFLOP/s", ax.get_legend_handles_labels()[1])

    def test_sweep(self):
        path = os.path.join(RESULTS, "reduce-sizes.json")
        self.assert_written(plot.plot_sweep(path, self.out))
        doc = plot.load(path, "results")
        fig = plot.sweep_figure(doc["results"], doc["device"], "block=256 dtype=int32 op=sum", "n")
        self.assert_labelled(fig)
        self.assertEqual(fig.axes[0].get_xscale(), "log")
        self.assertEqual(fig.axes[0].get_xlabel(), "n")

    @unittest.skipUnless(os.environ.get("GPUBENCH_BIN"), "GPUBENCH_BIN not set")
    def test_compare(self):
        comparison = os.path.join(self.out, "cmp.json")
        base = os.path.join(RESULTS, "reduce-2p28.json")
        subprocess.run([os.environ["GPUBENCH_BIN"], "compare", base, base, "--json", comparison], check=True,
                       stdout=subprocess.DEVNULL)
        self.assert_written(plot.plot_compare(comparison, self.out))
        with open(comparison) as f:
            fig = plot.compare_figure(json.load(f))
        self.assert_labelled(fig)
        self.assertIn("n=2^28", fig.axes[0].get_yticklabels()[0].get_text())

    def test_wrong_input_is_refused_naming_what_it_is(self):
        config = os.path.join(SOURCE, "configs", "ci.json")
        for draw, path, message in [
            (plot.plot_compare, os.path.join(RESULTS, "reduce-2p22.json"),
             'expected a comparison (gpubench compare --json), found "kind": "results"'),
            (plot.plot_ladder, os.path.join(RESULTS, "ci-compare.json"),
             'expected a results file (gpubench --json), found "kind": "comparison"'),
            (plot.plot_ladder, config,
             'expected a results file (gpubench --json), found a config ("benchmarks", no "kind")'),
        ]:
            with self.assertRaises(SystemExit) as caught:
                draw(path, self.out)
            self.assertEqual(caught.exception.code, f"{path}: {message}")

    def test_unreadable_input_is_one_line(self):
        for text in ("{bad", "[]", '{"schema_version": 2, "results": null}', "\udcff", "[" * 100000):
            path = os.path.join(self.out, "bad.json")
            with open(path, "w", errors="surrogateescape") as f:
                f.write(text)
            with self.assertRaises(SystemExit) as caught:
                plot.plot_ladder(path, self.out)
            self.assertIn("bad.json", str(caught.exception.code))
        self.assertIn("nested deeper", str(caught.exception.code))  # the last: no RecursionError
        with self.assertRaises(SystemExit):
            plot.plot_ladder(self.write([]), self.out)  # no rows: nothing to draw

    def test_a_verified_time_of_zero_is_refused(self):
        # A step's speedup divides by the median of the step before it.
        with self.assertRaises(SystemExit) as caught:
            plot.plot_ladder(self.write([result("a1", "first", 4.0, 100.0), result("a2", "first", 0.0, 200.0)]),
                             self.out)
        self.assertEqual(caught.exception.code, f"{self.out}/toy.json: result 2 (toy a2): median_ms is 0.0, "
                                                "not a positive time")

    def test_empty_comparison_is_refused(self):
        path = os.path.join(self.out, "cmp.json")
        with open(path, "w") as f:
            json.dump({"schema_version": 2, "kind": "comparison", "base_device": "A", "new_device": "B",
                       "threshold": 0.05, "rows": []}, f)
        with self.assertRaises(SystemExit) as caught:
            plot.plot_compare(path, self.out)
        self.assertEqual(caught.exception.code, f"{path}: no rows to draw (the comparison has none)")
        self.assertEqual(os.listdir(self.out), ["cmp.json"])

    def test_a_bad_group_leaves_no_chart(self):
        # The first group draws; the second names a primary metric it lacks: nothing is written.
        bad = result("a1", "first", 4.0, 100.0, params={"n": 1 << 22, "dtype": "int32", "seed": 42})
        path = self.write([result("a1", "first", 4.0, 100.0), {**bad, "primary": "none"}])
        charts = os.path.join(self.out, "charts")
        with self.assertRaises(SystemExit) as caught:
            plot.main(["ladder", path, "--out", charts])
        self.assertIn("toy.json: not drawable as a gpubench ladder file (KeyError: 'none'", caught.exception.code)
        self.assertFalse(os.path.exists(charts))

    def test_a_full_disk_leaves_no_chart(self):
        rows = [result("a1", "first", 4.0, 100.0, params={"n": n, "seed": 42}) for n in (1 << 20, 1 << 22)]
        path = self.write(rows)
        charts = os.path.join(self.out, "charts")
        os.makedirs(charts)
        opened = []

        def full_after_two(name, mode="r", *args, **kwargs):
            if "w" in mode:
                opened.append(name)
                if len(opened) == 3:  # the second chart's PNG
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), name)
            return open(name, mode, *args, **kwargs)

        with mock.patch.object(plot, "open", side_effect=full_after_two, create=True), \
                self.assertRaises(SystemExit) as caught:
            plot.main(["ladder", path, "--out", charts])
        self.assertEqual(caught.exception.code, f"cannot write the charts into {charts}: No space left on device")
        self.assertEqual(len(opened), 3)
        self.assertEqual(os.listdir(charts), [])

    def test_a_chart_name_taken_by_a_folder_leaves_no_chart(self):
        rows = [result("a1", "first", 4.0, 100.0, params={"n": n, "seed": 42}) for n in (1 << 20, 1 << 22)]
        path = self.write(rows)
        names = [os.path.basename(p) for p in plot.plot_ladder(path, os.path.join(self.out, "first"))]
        charts = os.path.join(self.out, "charts")
        os.makedirs(os.path.join(charts, names[-1]))  # the last to be renamed into place
        with self.assertRaises(SystemExit) as caught:
            plot.main(["ladder", path, "--out", charts])
        self.assertEqual(caught.exception.code, f"cannot write the charts into {charts}: Is a directory")
        self.assertEqual(os.listdir(charts), [names[-1]])

    def test_a_number_past_a_float_and_an_empty_out_are_one_line(self):
        path = self.write([result("a1", "first", 4.0, 100.0), result("a2", "first", 10 ** 400, 100.0)])
        with self.assertRaises(SystemExit) as caught:
            plot.main(["ladder", path])
        self.assertIn("toy.json: not drawable as a gpubench ladder file (OverflowError", caught.exception.code)
        with self.assertRaises(SystemExit) as caught:
            plot.main(["ladder", path, "--out", ""])
        self.assertEqual(caught.exception.code, "--out '': name a folder, or leave --out out to write beside the input")

    def test_chart_names_are_file_names(self):
        name = plot.chart_name("run", "ladder", "path=a/b " + "x" * 300, "flushed")
        self.assertNotIn("/", name)
        self.assertLessEqual(len(name), 200)

    def test_no_two_charts_share_a_name(self):
        # Labels a file name cannot tell apart refuse the file rather than overwrite a chart.
        with self.assertRaises(SystemExit) as caught:
            plot.chart_names("run.json", [("ladder", "toy", "path=a/b", "flushed"),
                                          ("ladder", "toy", "path=a_b", "flushed")])
        self.assertEqual(caught.exception.code, "run.json: 2 charts would be named run-ladder-toy-patha_b")

    def test_rows_that_differ_only_in_seed_get_a_chart_each(self):
        rows = [result(v, "first", ms, 100.0 / ms, params={"n": 1 << 20, "seed": seed})
                for seed in (1, 2) for v, ms in (("a1", 4.0), ("a2", 2.0))]
        written = plot.plot_ladder(self.write(rows), self.out)
        self.assertEqual([os.path.basename(p) for p in written],
                         ["toy-ladder-n2p20-seed1.png", "toy-ladder-n2p20-seed1.svg",
                          "toy-ladder-n2p20-seed2.png", "toy-ladder-n2p20-seed2.svg"])
        with open(written[3]) as f:
            self.assertIn("toy ladder, n=2^20 seed=2, Test GPU", f.read())

    def test_patterns_with_one_label_get_their_own_charts(self):
        # Two patterns at the same params: a ladder each, named after the pattern too.
        rows = [result("a1", "first", 4.0, 100.0), {**result("b1", "first", 2.0, 200.0), "pattern": "other"}]
        written = plot.plot_ladder(self.write(rows), self.out)
        self.assertEqual([os.path.basename(p) for p in written],
                         ["toy-ladder-toy-n2p20-dtypeint32.png", "toy-ladder-toy-n2p20-dtypeint32.svg",
                          "toy-ladder-other-n2p20-dtypeint32.png", "toy-ladder-other-n2p20-dtypeint32.svg"])

    # Schema 2, synthetic.

    def test_continuing_ladder_gets_a_speedup_on_its_first_step(self):
        path = self.write([result("a1", "first", 4.0, 100.0, more=[{**PCT_COPY, "value": 2.4}]),
                           result("a2", "first", 2.0, 200.0),
                           result("b1", "second", 1.0, 400.0, continues="first"),
                           result("c1", "third", 8.0, 50.0),
                           result("lib", "baseline", 1.0, 400.0), result("cpu", "baseline", 40.0, 10.0, where="host")])
        ax = self.ladder(path)
        self.assertEqual([t.get_text() for t in ax.texts], ["", "2.00x", "2.00x", "", "", ""])
        self.assertEqual(ax.get_title(), "toy ladder, n=2^20 dtype=int32, Test GPU")
        self.assertEqual(ax.get_ylabel(), "GB/s")
        colours = [tuple(p.get_facecolor()) for p in ax.patches]
        self.assertEqual(colours[0], colours[1])
        self.assertEqual(len({colours[0], colours[2], colours[3], colours[4]}), 4)
        self.assertEqual(colours[4], colours[5])  # baseline grey
        legend = ax.get_legend_handles_labels()[1]
        self.assertIn("lib 400.0 GB/s", legend)  # library device row as a line, the CPU row only as a bar
        self.assertIn("theoretical 5000 GB/s", legend)
        self.assertIn("toy-ladder-n2p20-dtypeint32.svg", os.listdir(self.out))

    def test_energy_beside_time(self):
        def with_energy(variant, mj, above):
            return result(variant, "first", 2.0, 100.0, more=[
                {"name": "energy_mj", "label": "mJ/run", "unit": "mJ", "digits": 3, "value": mj},
                {"name": "energy_above_idle_mj", "label": "mJ>idle", "unit": "mJ", "digits": 3, "value": above}])
        path = self.write([with_energy("a1", 10.0, 8.0), with_energy("a2", 5.0, 4.0), result("cpu", "baseline", 9.0, 1.0)])
        written = plot.plot_ladder(path, self.out)
        self.assertEqual(len(written), 4)  # the ladder and the energy chart, PNG and SVG each
        self.assertIn("toy-energy-n2p20-dtypeint32.png", os.listdir(self.out))
        doc = plot.load(path, "results")
        fig = plot.energy_figure(doc["results"], doc["device"])
        energy = fig.axes[1]
        self.assertEqual([p.get_height() for p in energy.patches], [8.0, 4.0, 2.0, 1.0])
        self.assertTrue(energy.get_ylabel())

    def test_one_chart_per_device(self):
        rows = [result("a1", "first", 4.0, 100.0), result("a2", "first", 2.0, 200.0)]
        on_second = [{**r, "device": 1} for r in rows]
        path = self.write(rows + on_second)
        with open(path) as f:
            doc = json.load(f)
        doc["devices"] = [{**DEVICE, "index": 0}, {**DEVICE, "index": 1, "name": "Second GPU"}]
        with open(path, "w") as f:
            json.dump(doc, f)
        written = plot.plot_ladder(path, self.out)
        self.assertEqual(len(written), 4)
        self.assertIn("toy-ladder-n2p20-dtypeint32-device1.svg", os.listdir(self.out))

    def test_gbps_against_another_bound_has_no_dram_lines(self):
        ax = self.ladder(self.write([result("a1", "first", 4.0, 50.0), result("a2", "first", 2.0, 100.0)]))
        legend = ax.get_legend_handles_labels()[1]
        self.assertFalse(any("theoretical" in t or "measured copy" in t for t in legend))

    def test_host_rows_join_their_runs_chart(self):
        cpu = result("cpu", "baseline", 40.0, 10.0, where="host")
        cpu["l2"] = "n/a"  # as files from before host rows were flushed say
        path = self.write([result("a1", "first", 4.0, 100.0), cpu])
        written = plot.plot_ladder(path, self.out)
        self.assertEqual(len(written), 2)  # one chart, as PNG and SVG

    def test_tflops_primary(self):
        params = {"m": 512, "n": 512, "k": 512, "seed": 1}
        path = self.write([result("x", "one", 1.0, 20.5, TFLOPS, params=params),
                           result("lib", "baseline", 0.5, 41.0, TFLOPS, params=params)])
        ax = self.ladder(path)
        self.assertEqual(ax.get_ylabel(), "TFLOP/s")
        self.assertEqual(ax.get_title(), "toy ladder, m=512 n=512 k=512, Test GPU")
        legend = ax.get_legend_handles_labels()[1]
        self.assertIn("FP32 CUDA-core peak 60.0 TFLOP/s", legend)
        self.assertFalse([label for label in legend if "GB/s" in label])

    def test_no_ceiling_for_other_units(self):
        ratio = {"name": "pct", "label": "% lib", "unit": "%", "digits": 1}
        ax = self.ladder(self.write([result("x", "one", 1.0, 90.0, ratio)]))
        self.assertEqual(ax.get_ylabel(), "% lib (%)")
        self.assertEqual(ax.get_legend_handles_labels()[1], [])

    def test_null_and_unverified_plot_zero(self):
        path = self.write([result("x", "one", 1.0, 100.0), result("y", "one", 0.5, None),
                           result("z", "one", 0.25, 400.0, verified=False)], device=None)
        ax = self.ladder(path)
        self.assertEqual([p.get_height() for p in ax.patches], [100.0, 0, 0])
        self.assertEqual([t.get_text() for t in ax.texts], ["", "n/a", "FAIL"])
        self.assertIn("host", ax.get_title())

    def test_sweep_from_xz(self):
        # The committed size sweeps are .json.xz: the same charts, named after the file without .json.xz.
        with open(os.path.join(RESULTS, "reduce-sizes.json"), "rb") as f:
            data = f.read()
        path = os.path.join(self.out, "sizes.json.xz")
        with lzma.open(path, "wb") as f:
            f.write(data)
        paths = plot.plot_sweep(path, self.out)
        self.assert_written(paths)
        self.assertTrue(all(os.path.basename(p).startswith("sizes-") for p in paths), paths)

    def test_sweep_over_any_integer_param(self):
        results = [result(v, ladder, m / 64, m / 8, TFLOPS, params={"m": m, "tile": 64, "seed": 1})
                   for m in (1024, 2048, 4096) for v, ladder in (("x", "one"), ("lib", "baseline"))]
        results.append(result("x", "one", 1.0, None, TFLOPS, params={"m": 8192, "tile": 64, "seed": 1}))
        path = self.write(results)
        self.assertEqual([os.path.basename(p) for p in plot.plot_sweep(path, self.out)],
                         ["toy-sweep-tile64.png", "toy-sweep-tile64.svg"])
        doc = plot.load(path, "results")
        fig = plot.sweep_figure(doc["results"], doc["device"], "tile=64", plot.swept_param(doc["results"]))
        self.assert_labelled(fig)
        ax = fig.axes[0]
        self.assertEqual(ax.get_xlabel(), "m")
        self.assertEqual(ax.get_xscale(), "log")
        self.assertIn("against m", ax.get_title())
        x, lib = ax.get_lines()[:2]
        self.assertEqual(list(x.get_xdata()), [1024, 2048, 4096])  # the row without a value is left out
        self.assertEqual((x.get_linestyle(), lib.get_linestyle()), ("-", "--"))

    def test_parameters_that_step_together_are_one_sweep(self):
        # Square images: width and height change together, so they are one
        # axis and one chart per mask, not one chart (of one point) per width.
        results = [result(v, ladder, s / 64, s / 8, params={"width": s, "height": s, "mask": m, "seed": 1})
                   for s in (1024, 2048, 4096) for m in (3, 15) for v, ladder in (("x", "one"), ("lib", "baseline"))]
        path = self.write(results)
        self.assertEqual(sorted(os.path.basename(p) for p in plot.plot_sweep(path, self.out)),
                         ["toy-sweep-mask15.png", "toy-sweep-mask15.svg", "toy-sweep-mask3.png", "toy-sweep-mask3.svg"])
        doc = plot.load(path, "results")
        swept = plot.swept_param(doc["results"])
        along = plot.companions(doc["results"], swept)
        self.assertEqual({swept, *along}, {"width", "height"})
        fig = plot.sweep_figure([r for r in doc["results"] if r["params"]["mask"] == 3], doc["device"], "mask=3",
                                swept, along)
        self.assertEqual(fig.axes[0].get_xlabel(), f"{swept} = {along[0]}")
        self.assertEqual(list(fig.axes[0].get_lines()[0].get_xdata()), [1024, 2048, 4096])

    def test_sweep_needs_a_varying_integer(self):
        with self.assertRaises(SystemExit):
            plot.plot_sweep(self.write([result("x", "one", 1.0, 1.0), result("y", "one", 1.0, 1.0)]), self.out)
        # Each of two patterns at one size (n differs between them, but no pattern sweeps it).
        path = self.write([result("x", "one", 1.0, 1.0),
                           {**result("y", "one", 1.0, 1.0, params={"n": 4096, "seed": 42}), "pattern": "other"}])
        with self.assertRaises(SystemExit) as caught:
            plot.plot_sweep(path, self.out)
        self.assertEqual(caught.exception.code, f"{path}: no integer parameter differs between the results of any "
                                                "one pattern, so there is no sweep to draw")

    def test_sweep_per_pattern(self):
        # A pattern swept over n and another at one size: one chart, of the first; the other is named on stderr.
        rows = [result("x", "one", n / 1e6, 100.0, params={"n": n, "dtype": "int32", "seed": 42})
                for n in (1 << 16, 1 << 18, 1 << 20)]
        path = self.write(rows + [{**result("x", "one", 1.0, 5.0, TFLOPS, params={"m": 128, "n": 128, "seed": 42}),
                                   "pattern": "other"}])
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            written = plot.plot_sweep(path, self.out)
        self.assertEqual(stderr.getvalue(), f"{path}: other left out: no integer parameter differs between its results\n")
        self.assertEqual([os.path.basename(p) for p in written], ["toy-sweep-dtypeint32.png", "toy-sweep-dtypeint32.svg"])
        with open(written[1]) as f:
            self.assertIn("toy: GB/s against n, dtype=int32, Test GPU", f.read())

    def test_sweep_through_zero(self):
        # 0 (a transfer in one piece, say) has no place on a log axis: symlog keeps it.
        rows = [result("x", "one", 1.0, 10.0 + c, params={"chunk": c, "seed": 42}) for c in (0, 1 << 16, 1 << 18)]
        doc = plot.load(self.write(rows), "results")
        ax = plot.sweep_figure(doc["results"], doc["device"], "", "chunk").axes[0]
        self.assertEqual(ax.get_xscale(), "symlog")
        self.assertEqual(list(ax.get_lines()[0].get_xdata()), [0, 1 << 16, 1 << 18])

    def test_comparison_is_read_and_a_later_version_refused(self):
        path = os.path.join(self.out, "cmp.json")
        with open(path, "w") as f:
            json.dump({"schema_version": 2, "kind": "comparison", "base_device": "A", "new_device": "B",
                       "threshold": 0.05, "alpha": 0.01,
                       "rows": [{"pattern": "toy", "variant": "x", "params": {"n": 4096, "seed": 1},
                                 "l2": "flushed", "unit": "GB/s", "base": 100.0, "new": 110.0, "change": 0.1,
                                 "p_value": 0.001, "verdict": "faster"}]}, f)
        self.assert_written(plot.plot_compare(path, self.out))
        with open(path) as f:
            fig = plot.compare_figure(json.load(f))
        self.assert_labelled(fig)
        self.assertEqual(fig.axes[0].get_yticklabels()[0].get_text(), "x n=2^12")
        with open(path) as f:
            doc = json.load(f)
        doc["schema_version"] = 3  # no build writes it
        with open(path, "w") as f:
            json.dump(doc, f)
        with self.assertRaises(SystemExit) as e:
            plot.load(path, "comparison")
        self.assertIn("schema_version 3 is not one this script reads", str(e.exception))


if __name__ == "__main__":
    unittest.main()
