// Sortie: noyau écrit en Latin-1 (café, naïve, 25µs); clang must accept it.
/* Commentaire à plusieurs lignes
   avec « guillemets ». */

/// Doc comment with a Latin-1 byte: résumé.
__global__ void scale(float *data, float factor, int n) { // facteur × données
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}
