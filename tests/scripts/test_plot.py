"""scripts/plot.py on committed H200 results: every chart is written as PNG
and SVG, with a title and labelled axes. Run by ctest (tests/CMakeLists.txt),
which sets GPUBENCH_BIN and GPUBENCH_SOURCE_DIR."""
import importlib.util
import json
import os
import subprocess
import tempfile
import unittest

SOURCE = os.environ.get("GPUBENCH_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
RESULTS = os.path.join(SOURCE, "results", "h200")

spec = importlib.util.spec_from_file_location("plot", os.path.join(SOURCE, "scripts", "plot.py"))
plot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plot)


class PlotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

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

    def test_ladder(self):
        path = os.path.join(RESULTS, "reduce-2p22.json")
        self.assert_written(plot.plot_ladder(path, self.out))
        doc = plot.load(path, "results")
        fig = plot.ladder_figure(doc["results"], doc["device"])
        self.assert_labelled(fig)
        self.assertIn("NVIDIA H200", fig.axes[0].get_title())
        svg = [p for p in os.listdir(self.out) if p.endswith(".svg")][0]
        with open(os.path.join(self.out, svg)) as f:
            self.assertIn("reduce ladder", f.read())  # text stays text in the SVG

    def test_gemm_ladder_is_in_tflops(self):
        path = os.path.join(RESULTS, "gemm-4096.json")
        self.assert_written(plot.plot_ladder(path, self.out))
        doc = plot.load(path, "results")
        fig = plot.ladder_figure(doc["results"], doc["device"])
        self.assert_labelled(fig)
        self.assertIn("TFLOP/s", fig.axes[0].get_ylabel())

    def test_sweep(self):
        path = os.path.join(RESULTS, "reduce-sizes.json")
        self.assert_written(plot.plot_sweep(path, self.out))
        doc = plot.load(path, "results")
        fig = plot.sweep_figure(doc["results"], doc["device"], "int32 sum block=256")
        self.assert_labelled(fig)
        self.assertEqual(fig.axes[0].get_xscale(), "log")

    def test_compare(self):
        comparison = os.path.join(self.out, "cmp.json")
        base = os.path.join(RESULTS, "reduce-2p28.json")
        subprocess.run([os.environ["GPUBENCH_BIN"], "compare", base, base, "--json", comparison], check=True,
                       stdout=subprocess.DEVNULL)
        self.assert_written(plot.plot_compare(comparison, self.out))
        with open(comparison) as f:
            self.assert_labelled(plot.compare_figure(json.load(f)))

    def test_wrong_input_is_refused(self):
        with self.assertRaises(SystemExit):
            plot.plot_compare(os.path.join(RESULTS, "reduce-2p22.json"), self.out)


if __name__ == "__main__":
    unittest.main()
