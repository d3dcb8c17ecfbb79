// simgrid_routes.cpp - prints SimGrid's own routes between the hosts of a
// platform file, for test_simgrid_zones: one line per ordered pair
// "SRC DST LINK..." (host indices of the names PREFIX0 .. PREFIX(N-1), the
// links in route order). Usage: simgrid_routes PLATFORM.xml N [STEP]: the
// pairs (i, j) with (i * N + j) % STEP == 0. simgrid_routes PLATFORM.xml
// --names: every ordered pair of hosts by name, "SRC DST LATENCY LINK...",
// for test_sgxml.
#include <simgrid/s4u.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

int main(int argc, char** argv)
{
  sg4::Engine e(&argc, argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: simgrid_routes PLATFORM.xml N [STEP]\n");
    return 2;
  }
  e.load_platform(argv[1]);
  if (std::string(argv[2]) == "--names") {
    e.seal_platform(); /* Floyd and Dijkstra zones compute their tables here */
    std::vector<sg4::Host*> all = e.get_all_hosts();
    for (auto const* a : all)
      for (auto const* b : all) {
        if (a == b)
          continue;
        std::vector<sg4::Link*> links;
        double lat = 0;
        a->route_to(b, links, &lat);
        std::printf("%s %s %.17g", a->get_cname(), b->get_cname(), lat);
        for (auto const* l : links)
          std::printf(" %s", l->get_cname());
        std::printf("\n");
      }
    return 0;
  }
  int n    = std::atoi(argv[2]);
  int step = argc > 3 ? std::atoi(argv[3]) : 1;
  std::vector<sg4::Host*> hosts;
  for (int i = 0; i < n; i++)
    hosts.push_back(sg4::Host::by_name("node-" + std::to_string(i)));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (i == j || (i * n + j) % step != 0)
        continue;
      std::vector<sg4::Link*> links;
      double lat = 0;
      hosts[i]->route_to(hosts[j], links, &lat);
      std::printf("%d %d", i, j);
      for (auto const* l : links)
        std::printf(" %s", l->get_cname());
      std::printf("\n");
    }
  return 0;
}
