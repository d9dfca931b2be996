// tb-bench-parilut-pipeline: seed 003 Fig. 11 for the ParILUT step pipeline
// (solvers/parilut/step_pipeline.hpp): the seconds of each building block of
// the steps for the host ParILUT (parilut_factor, OpenMP), the pipeline's
// OpenMP kernels and, where a CUDA device is visible, the pipeline on the
// device, and the host / device ratio of the steps' time. The workspace is
// planned and allocated before the timed factorisation (once per pattern).
//
//   build/bin/tb-bench-parilut-pipeline --problems ani7 --ani 1415x707 --json OUT.json
//   build/bin/tb-bench-parilut-pipeline --system A.mtx --steps 3
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "../common/command_line.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/json_writer.hpp"
#include "solvers/core/machine.hpp"
#include "solvers/matrix/anisotropic_diffusion.hpp"
#include "solvers/matrix/matrix_market.hpp"
#include "solvers/parilut/parilut.hpp"
#include "solvers/parilut/step_pipeline.hpp"

namespace tb::bench {
namespace {

struct Named {
  std::string name;
  CsrMatrix a;
};

struct Options {
  std::vector<Named> matrices;
  parilut::ParilutOptions parilut;
  std::string json_path;
};

const char* usage =
    "usage: tb-bench-parilut-pipeline [--problems ani5,ani6,ani7] [--ani NXxNY] [--system A.mtx] [--steps N]\n"
    "                                 [--fill F] [--select approx|exact] [--json FILE]\n";

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

Named anisotropic(index_t nx, index_t ny, std::string name) {
  AnisotropicDiffusionParams p;
  p.nx = nx, p.ny = ny;
  return {std::move(name), generate_anisotropic_diffusion(p)};
}

Options parse(int argc, char** argv) {
  Options o;
  o.parilut.steps = 3;
  for (ArgumentList args(argc, argv, usage); args.next();) {
    const std::string arg = args.flag();
    if (arg == "--problems") {
      for (const std::string& name : split(args.value())) {
        if (name == "ani5")
          o.matrices.push_back(anisotropic(159, 79, name));
        else if (name == "ani6")
          o.matrices.push_back(anisotropic(319, 159, name));
        else if (name == "ani7")
          o.matrices.push_back(anisotropic(639, 319, name));
        else
          throw Error("--problems: unknown problem '" + name + "' (ani5, ani6, ani7)");
      }
    } else if (arg == "--ani") {
      const std::string v = args.value();
      const std::size_t x = v.find('x');
      if (x == std::string::npos) throw Error("--ani: expected NXxNY, got '" + v + "'");
      o.matrices.push_back(
          anisotropic(index_t(std::stol(v.substr(0, x))), index_t(std::stol(v.substr(x + 1))), "ani-" + v));
    } else if (arg == "--system") {
      const std::string path = args.value();
      o.matrices.push_back({path.substr(path.find_last_of('/') + 1), read_matrix_market(path).matrix});
    } else if (arg == "--steps") {
      o.parilut.steps = int(parse_count(arg, args.value(), 0));
    } else if (arg == "--fill") {
      o.parilut.fill = parse_real(arg, args.value(), 1.0);
    } else if (arg == "--select") {
      o.parilut.exact_select = args.value() == "exact";
    } else if (arg == "--json") {
      o.json_path = args.value();
    } else {
      args.reject();
    }
  }
  if (o.matrices.empty()) o.matrices.push_back(anisotropic(159, 79, "ani5"));
  return o;
}

struct Run {
  std::string what;
  parilut::StepSeconds seconds;
  long long most_candidates = 0;  // the largest |F| of a step: what candidate_room must hold
};

Run summed(std::string what, const std::vector<parilut::StepReport>& steps) {
  Run r{std::move(what), {}, 0};
  for (const parilut::StepReport& s : steps) {
    r.seconds += s.seconds;
    r.most_candidates = std::max(r.most_candidates, s.candidates);
  }
  return r;
}

std::vector<Run> measure(const Named& m, const parilut::ParilutOptions& o) {
  std::vector<Run> runs;
  std::vector<parilut::StepReport> steps;
  parilut::parilut_factor(m.a, o, &steps);
  runs.push_back(summed("host parilut (omp)", steps));
  steps.clear();
  parilut::StepPipeline host(m.a, o, Backend::host);
  host.factor(m.a, &steps);
  runs.push_back(summed("pipeline, omp kernels", steps));
  if (cuda_device_count() > 0) {
    steps.clear();
    parilut::StepPipeline device(m.a, o, Backend::cuda);
    device.factor(m.a);  // warm-up: first launches, the device's clocks
    device.factor(m.a, &steps);
    runs.push_back(summed("pipeline, cuda", steps));
  }
  return runs;
}

double budget(const Named& m, const parilut::ParilutOptions& o) {
  const parilut::PipelinePlan p = parilut::plan_pipeline(m.a, o.fill, o.candidate_room);
  return double(p.budget_l + p.budget_u);
}

void print(const Named& m, const parilut::ParilutOptions& o, const std::vector<Run>& runs) {
  std::printf("\n%s: %d rows, %d entries; seconds of the steps per building block (seed 003 Fig. 11)\n", m.name.c_str(),
              m.a.rows, m.a.nnz());
  std::printf("  %-24s", "");
  for (const char* b : parilut::step_block_names) std::printf(" %11s", b);
  std::printf(" %11s\n", "total");
  for (const Run& r : runs) {
    std::printf("  %-24s", r.what.c_str());
    for (double s : r.seconds.block) std::printf(" %11.4g", s);
    std::printf(" %11.4g\n", r.seconds.total());
  }
  std::printf("  most candidates in a step: %lld, %.3g x the fill budget (candidate_room %.3g)\n",
              runs[0].most_candidates, double(runs[0].most_candidates) / budget(m, o), o.candidate_room);
  if (runs.size() == 3)
    std::printf("  host parilut / cuda pipeline: %.3g x\n", runs[0].seconds.total() / runs[2].seconds.total());
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const Machine machine = describe_machine();
  std::cout << summary(machine) << "\n";
  JsonWriter j;
  j.begin_object().begin_object("about");
  j.value("what",
          "seconds per building block of ParILUT's steps (seed 003 Fig. 11): the host ParILUT, the step "
          "pipeline's OpenMP kernels and the pipeline on the device");
  j.value("command", "tb-bench-parilut-pipeline");
  j.value("machine", machine.gpu.empty() ? "host" : "gpu");
  j.value("device", machine.gpu.empty() ? machine.cpu_model : machine.gpu);
  j.value("commit", machine.git_commit).value("date", machine.date_utc.substr(0, 10));
  j.value("headline", "host ParILUT steps {host:.3g} s on the first matrix");
  j.begin_object("figures").value("host", "/matrices/0/runs/0/total").end_object();
  j.end_object().begin_array("matrices");
  for (const Named& m : o.matrices) {
    const std::vector<Run> runs = measure(m, o.parilut);
    print(m, o.parilut, runs);
    j.begin_object().value("name", m.name).value("rows", (long long)m.a.rows).value("nnz", (long long)m.a.nnz());
    j.value("steps", o.parilut.steps).value("fill", o.parilut.fill);
    j.value("most_candidates", runs[0].most_candidates).value("budget", budget(m, o.parilut)).begin_array("runs");
    for (const Run& r : runs) {
      j.begin_object().value("what", r.what).value("total", r.seconds.total());
      for (std::size_t b = 0; b < r.seconds.block.size(); ++b)
        j.value(parilut::step_block_names[b], r.seconds.block[b]);
      j.end_object();
    }
    j.end_array().end_object();
  }
  j.end_array().end_object();
  if (!o.json_path.empty()) {
    j.save(o.json_path);
    std::cout << "\nwrote " << o.json_path << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace tb::bench

int main(int argc, char** argv) {
  return tb::bench::guarded_main("tb-bench-parilut-pipeline", argc, argv, tb::bench::run);
}
