// Tile and stencil sizes of stencil_1d.cu, overridable from the command line (-D RADIUS=4).
#pragma once

#ifndef RADIUS
#define RADIUS 3
#endif

#ifndef BLOCK_SIZE
#define BLOCK_SIZE 256
#endif

static_assert(RADIUS >= 1 && RADIUS < BLOCK_SIZE, "the halo must fit in one block's tile");
