/* mapsim.c - the executable: everything is mapsim_main (main.c), which a
 * test can call too. */
#include "cli/cli.h"

int main(int argc, char **argv)
{
  return mapsim_main(argc, argv);
}
