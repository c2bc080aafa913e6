// dpforest command-line entry point.
#include <cstdio>

int main() {
  std::puts("dpforest");
  return 0;
}
