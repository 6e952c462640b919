#include "analysis/dependency_graph.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dag_shortest_paths.hpp>
#include <limits>
#include <unordered_map>
#include <vector>

namespace warpsim::analysis {
namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                    boost::property<boost::edge_weight_t, std::int64_t>>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

// Longest path from a virtual source into every vertex: dag_shortest_paths on negated weights.
std::int64_t longest_path(const Graph& g, Vertex source, const std::vector<std::int64_t>& extra_at_end) {
  const std::size_t n = boost::num_vertices(g);
  std::vector<std::int64_t> distance(n, std::numeric_limits<std::int64_t>::max());
  boost::dag_shortest_paths(g, source,
                            boost::distance_map(boost::make_iterator_property_map(distance.begin(),
                                                                                   boost::get(boost::vertex_index, g)))
                                .weight_map(boost::get(boost::edge_weight, g)));
  std::int64_t best = 0;
  for (std::size_t v = 0; v < n; ++v)
    if (distance[v] != std::numeric_limits<std::int64_t>::max()) best = std::max(best, -distance[v] + extra_at_end[v]);
  return best;
}

}  // namespace

std::uint64_t minimum_latency(const models::Arch& a, const traces::Instruction& in) {
  if (!in.is_memory()) return a.units.latency[static_cast<int>(in.unit)];
  if (in.space == traces::MemSpace::Shared) return a.units.shared_latency;
  if (in.mem_op == traces::MemOp::Store) return 1;
  return std::min<std::uint64_t>(a.l1.hit_latency, a.l2.hit_latency);
}

DependencyAnalysis analyze_block(const models::Arch& arch, traces::KernelSource& kernel, std::uint64_t block_id) {
  DependencyAnalysis result;
  auto warps = kernel.open_block(block_id);
  result.warps = static_cast<std::uint32_t>(warps.size());

  // Two graphs over the same vertices: latency-weighted (cycles) and unit-weighted (chain length).
  Graph cycles_graph(1), chain_graph(1);  // vertex 0: the source every warp starts from
  const Vertex source = 0;
  std::vector<std::int64_t> cycles_tail{0}, chain_tail{0};
  auto add_vertex = [&]() {
    boost::add_vertex(cycles_graph);
    boost::add_vertex(chain_graph);
    cycles_tail.push_back(1);  // the last issue itself takes a cycle
    chain_tail.push_back(1);
    return static_cast<Vertex>(boost::num_vertices(cycles_graph) - 1);
  };
  // Negated weights: dag_shortest_paths then finds the longest path.
  auto add_edge = [&](Vertex from, Vertex to, std::int64_t cycles, std::int64_t chain) {
    boost::add_edge(from, to, -cycles, cycles_graph);
    boost::add_edge(from, to, -chain, chain_graph);
  };

  // Barrier rounds: every warp's k-th barrier feeds round k's join vertex, which feeds the
  // instruction after each warp's k-th barrier.
  std::vector<Vertex> barrier_join;
  const std::int64_t issue_gap = arch.sm.dispatch_per_scheduler > 1 ? 0 : 1;  // dual issue may pair neighbours
  traces::Instruction in;
  for (auto& stream : warps) {
    std::unordered_map<traces::Reg, std::pair<Vertex, std::int64_t>> last_writer;  // reg -> (vertex, latency)
    Vertex previous = source;
    std::int64_t previous_gap = 0;
    std::uint32_t barriers_seen = 0;
    while (stream->next(in)) {
      const Vertex v = add_vertex();
      ++result.instructions;
      add_edge(previous, v, previous_gap, 0);  // in order within a warp (S2.8)
      auto depend_on = [&](traces::Reg r) {
        if (r == traces::kNoReg || r == traces::kRegRZ) return;
        if (auto it = last_writer.find(r); it != last_writer.end()) add_edge(it->second.first, v, it->second.second, 1);
      };
      for (int i = 0; i < in.src_count; ++i) depend_on(in.src[i]);
      for (int i = 0; i < in.dst_count; ++i) depend_on(in.dst[i]);
      const std::int64_t latency = static_cast<std::int64_t>(minimum_latency(arch, in));
      const int span = (in.mem_op == traces::MemOp::Load && in.width > 4) ? in.width / 4 : 1;
      for (int i = 0; i < in.dst_count; ++i)
        for (int k = 0; k < span; ++k)
          if (in.dst[i] != traces::kNoReg && in.dst[i] != traces::kRegRZ)
            last_writer[static_cast<traces::Reg>(in.dst[i] + k)] = {v, latency};
      previous = v;
      previous_gap = issue_gap;
      if (in.control == traces::Control::Barrier) {
        if (barriers_seen == barrier_join.size()) barrier_join.push_back(add_vertex());
        const Vertex join = barrier_join[barriers_seen++];
        cycles_tail[join] = 0;
        chain_tail[join] = 0;
        add_edge(v, join, 1, 0);
        previous = join;
        previous_gap = 0;
      }
    }
  }
  result.barriers = static_cast<std::uint32_t>(barrier_join.size());
  if (result.instructions == 0) return result;
  result.critical_path_cycles = static_cast<std::uint64_t>(longest_path(cycles_graph, source, cycles_tail));
  result.critical_path_length = static_cast<std::uint64_t>(longest_path(chain_graph, source, chain_tail));
  result.ilp = double(result.instructions) / double(std::max<std::uint64_t>(1, result.critical_path_length));
  return result;
}

}  // namespace warpsim::analysis
