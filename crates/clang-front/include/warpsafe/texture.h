/* warpsafe device headers: textures and surfaces (Programming Guide, "Texture
 * and Surface Memory", "Texture Functions", "Surface Functions"): texture and
 * surface objects, the legacy texture<T, dim, mode> reference template, the
 * device fetch / read / write templates, and the host calls that set them up.
 */
#ifndef WARPSAFE_TEXTURE_H
#define WARPSAFE_TEXTURE_H

#pragma clang system_header

typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;

enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
struct cudaExtent {
  size_t width, height, depth;
};

enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
  } res;
};
struct cudaResourceViewDesc;

enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
};

#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaArrayDefault 0x00
#define cudaArraySurfaceLoadStore 0x02

/* Legacy texture references: file-scope `texture<float, 1> tex;` variables
 * the host binds and kernels fetch from. The builtin-texture attribute makes
 * clang treat such variables as device handles. */
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
};
template <class T, int texType = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {};

/* Legacy surface references: file-scope `surface<void, 2> surf;` variables the
 * host binds to an array and kernels read and write with surf2Dread/surf2Dwrite. */
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
struct surfaceReference {
  struct cudaChannelFormatDesc channelDesc;
};
template <class T, int dim = cudaSurfaceType1D>
struct __attribute__((device_builtin_surface_type)) surface : public surfaceReference {};

/* What a normalized-float fetch returns for an 8- or 16-bit element type. */
template <class T> struct __warpsafe_tex_norm { typedef float type; };
template <> struct __warpsafe_tex_norm<char2> { typedef float2 type; };
template <> struct __warpsafe_tex_norm<char4> { typedef float4 type; };
template <> struct __warpsafe_tex_norm<uchar2> { typedef float2 type; };
template <> struct __warpsafe_tex_norm<uchar4> { typedef float4 type; };
template <> struct __warpsafe_tex_norm<short2> { typedef float2 type; };
template <> struct __warpsafe_tex_norm<short4> { typedef float4 type; };
template <> struct __warpsafe_tex_norm<ushort2> { typedef float2 type; };
template <> struct __warpsafe_tex_norm<ushort4> { typedef float4 type; };

#pragma clang attribute push(__attribute__((device)), apply_to = function)

/* Texture objects: the element type is the explicit template argument
 * (`tex1Dfetch<float>(tex, i)`), or the pointee of the first argument. */
template <class T> T tex1Dfetch(cudaTextureObject_t texObject, int x);
template <class T> T tex1D(cudaTextureObject_t texObject, float x);
template <class T> T tex2D(cudaTextureObject_t texObject, float x, float y);
template <class T> T tex3D(cudaTextureObject_t texObject, float x, float y, float z);
template <class T> T tex1DLayered(cudaTextureObject_t texObject, float x, int layer);
template <class T> T tex2DLayered(cudaTextureObject_t texObject, float x, float y, int layer);
template <class T> T tex1DLod(cudaTextureObject_t texObject, float x, float level);
template <class T> T tex2DLod(cudaTextureObject_t texObject, float x, float y, float level);
template <class T> T texCubemap(cudaTextureObject_t texObject, float x, float y, float z);
template <class T> T tex1DGrad(cudaTextureObject_t texObject, float x, float dPdx, float dPdy);
template <class T>
T tex2DGrad(cudaTextureObject_t texObject, float x, float y, float2 dPdx, float2 dPdy);
template <class T> void tex1DLayered(T *ptr, cudaTextureObject_t texObject, float x, int layer);
template <class T>
void tex2DLayered(T *ptr, cudaTextureObject_t texObject, float x, float y, int layer);
template <class T> void texCubemap(T *ptr, cudaTextureObject_t texObject, float x, float y, float z);
template <class T> void tex1DLod(T *ptr, cudaTextureObject_t texObject, float x, float level);
template <class T>
void tex2DLod(T *ptr, cudaTextureObject_t texObject, float x, float y, float level);
template <class T>
void tex1DGrad(T *ptr, cudaTextureObject_t texObject, float x, float dPdx, float dPdy);
template <class T>
void tex2DGrad(T *ptr, cudaTextureObject_t texObject, float x, float y, float2 dPdx, float2 dPdy);
template <class T> void tex1Dfetch(T *ptr, cudaTextureObject_t texObject, int x);
template <class T> void tex1D(T *ptr, cudaTextureObject_t texObject, float x);
template <class T> void tex2D(T *ptr, cudaTextureObject_t texObject, float x, float y);
template <class T> void tex3D(T *ptr, cudaTextureObject_t texObject, float x, float y, float z);

/* Texture references. */
template <class T> T tex1Dfetch(texture<T, cudaTextureType1D, cudaReadModeElementType> t, int x);
template <class T>
typename __warpsafe_tex_norm<T>::type
tex1Dfetch(texture<T, cudaTextureType1D, cudaReadModeNormalizedFloat> t, int x);
template <class T> T tex1D(texture<T, cudaTextureType1D, cudaReadModeElementType> t, float x);
template <class T>
typename __warpsafe_tex_norm<T>::type
tex1D(texture<T, cudaTextureType1D, cudaReadModeNormalizedFloat> t, float x);
template <class T>
T tex2D(texture<T, cudaTextureType2D, cudaReadModeElementType> t, float x, float y);
template <class T>
typename __warpsafe_tex_norm<T>::type
tex2D(texture<T, cudaTextureType2D, cudaReadModeNormalizedFloat> t, float x, float y);
template <class T>
T tex3D(texture<T, cudaTextureType3D, cudaReadModeElementType> t, float x, float y, float z);
template <class T>
typename __warpsafe_tex_norm<T>::type
tex3D(texture<T, cudaTextureType3D, cudaReadModeNormalizedFloat> t, float x, float y, float z);
template <class T>
T tex1DLayered(texture<T, cudaTextureType1DLayered, cudaReadModeElementType> t, float x, int layer);
template <class T>
typename __warpsafe_tex_norm<T>::type
tex1DLayered(texture<T, cudaTextureType1DLayered, cudaReadModeNormalizedFloat> t, float x,
             int layer);
template <class T>
T tex2DLayered(texture<T, cudaTextureType2DLayered, cudaReadModeElementType> t, float x, float y,
               int layer);
template <class T>
typename __warpsafe_tex_norm<T>::type
tex2DLayered(texture<T, cudaTextureType2DLayered, cudaReadModeNormalizedFloat> t, float x,
             float y, int layer);
template <class T>
T texCubemap(texture<T, cudaTextureTypeCubemap, cudaReadModeElementType> t, float x, float y,
             float z);
template <class T>
typename __warpsafe_tex_norm<T>::type
texCubemap(texture<T, cudaTextureTypeCubemap, cudaReadModeNormalizedFloat> t, float x, float y,
           float z);

/* Surface objects. */
template <class T>
T surf1Dread(cudaSurfaceObject_t surfObject, int x,
             enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
T surf2Dread(cudaSurfaceObject_t surfObject, int x, int y,
             enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
T surf3Dread(cudaSurfaceObject_t surfObject, int x, int y, int z,
             enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
void surf2Dread(T *data, cudaSurfaceObject_t surfObject, int x, int y,
                enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
void surf1Dwrite(T data, cudaSurfaceObject_t surfObject, int x,
                 enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
void surf2Dwrite(T data, cudaSurfaceObject_t surfObject, int x, int y,
                 enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
void surf3Dwrite(T data, cudaSurfaceObject_t surfObject, int x, int y, int z,
                 enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
void surf1Dread(T *data, cudaSurfaceObject_t surfObject, int x,
                enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
void surf3Dread(T *data, cudaSurfaceObject_t surfObject, int x, int y, int z,
                enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
T surf1DLayeredread(cudaSurfaceObject_t surfObject, int x, int layer,
                    enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
T surf2DLayeredread(cudaSurfaceObject_t surfObject, int x, int y, int layer,
                    enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
void surf1DLayeredread(T *data, cudaSurfaceObject_t surfObject, int x, int layer,
                       enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
void surf2DLayeredread(T *data, cudaSurfaceObject_t surfObject, int x, int y, int layer,
                       enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
void surf1DLayeredwrite(T data, cudaSurfaceObject_t surfObject, int x, int layer,
                        enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);
template <class T>
void surf2DLayeredwrite(T data, cudaSurfaceObject_t surfObject, int x, int y, int layer,
                        enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap);

/* Surface references: the texel type is the explicit template argument
 * (`surf2Dread<float>(surf, x, y)`), the pointee of the first argument, or
 * the type of the value written. */
#define __WARPSAFE_SURF_MODE enum cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap
template <class T> T surf1Dread(surface<void, cudaSurfaceType1D> s, int x, __WARPSAFE_SURF_MODE);
template <class T>
T surf2Dread(surface<void, cudaSurfaceType2D> s, int x, int y, __WARPSAFE_SURF_MODE);
template <class T>
T surf3Dread(surface<void, cudaSurfaceType3D> s, int x, int y, int z, __WARPSAFE_SURF_MODE);
template <class T>
T surf1DLayeredread(surface<void, cudaSurfaceType1DLayered> s, int x, int layer,
                    __WARPSAFE_SURF_MODE);
template <class T>
T surf2DLayeredread(surface<void, cudaSurfaceType2DLayered> s, int x, int y, int layer,
                    __WARPSAFE_SURF_MODE);
template <class T>
void surf1Dread(T *res, surface<void, cudaSurfaceType1D> s, int x, __WARPSAFE_SURF_MODE);
template <class T>
void surf2Dread(T *res, surface<void, cudaSurfaceType2D> s, int x, int y, __WARPSAFE_SURF_MODE);
template <class T>
void surf3Dread(T *res, surface<void, cudaSurfaceType3D> s, int x, int y, int z,
                __WARPSAFE_SURF_MODE);
template <class T>
void surf1DLayeredread(T *res, surface<void, cudaSurfaceType1DLayered> s, int x, int layer,
                       __WARPSAFE_SURF_MODE);
template <class T>
void surf2DLayeredread(T *res, surface<void, cudaSurfaceType2DLayered> s, int x, int y, int layer,
                       __WARPSAFE_SURF_MODE);
template <class T>
void surf1Dwrite(T val, surface<void, cudaSurfaceType1D> s, int x, __WARPSAFE_SURF_MODE);
template <class T>
void surf2Dwrite(T val, surface<void, cudaSurfaceType2D> s, int x, int y, __WARPSAFE_SURF_MODE);
template <class T>
void surf3Dwrite(T val, surface<void, cudaSurfaceType3D> s, int x, int y, int z,
                 __WARPSAFE_SURF_MODE);
template <class T>
void surf1DLayeredwrite(T val, surface<void, cudaSurfaceType1DLayered> s, int x, int layer,
                        __WARPSAFE_SURF_MODE);
template <class T>
void surf2DLayeredwrite(T val, surface<void, cudaSurfaceType2DLayered> s, int x, int y,
                        int layer, __WARPSAFE_SURF_MODE);
#undef __WARPSAFE_SURF_MODE

#pragma clang attribute pop

/* ---- host side ---------------------------------------------------------- */

extern "C" {
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   enum cudaChannelFormatKind f);
cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                            size_t width, size_t height = 0, unsigned int flags = 0);
cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                              struct cudaExtent extent, unsigned int flags = 0);
cudaError_t cudaFreeArray(cudaArray_t array);
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                const void *src, size_t spitch, size_t width, size_t height,
                                enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                  size_t wOffset, size_t hOffset, size_t width, size_t height,
                                  enum cudaMemcpyKind kind);
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                    const struct cudaResourceDesc *pResDesc,
                                    const struct cudaTextureDesc *pTexDesc,
                                    const struct cudaResourceViewDesc *pResViewDesc);
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                    const struct cudaResourceDesc *pResDesc);
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
cudaError_t cudaUnbindTexture(const struct textureReference *texref);
} /* extern "C" */

template <class T> struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
template <class T, int dim, enum cudaTextureReadMode readMode>
cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex,
                            const void *devPtr, size_t size = ~(size_t)0);
template <class T, int dim, enum cudaTextureReadMode readMode>
cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex,
                            const void *devPtr, const struct cudaChannelFormatDesc &desc,
                            size_t size = ~(size_t)0);
template <class T, int dim, enum cudaTextureReadMode readMode>
cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, readMode> &tex,
                              const void *devPtr, size_t width, size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode readMode>
cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, readMode> &tex,
                              const void *devPtr, const struct cudaChannelFormatDesc &desc,
                              size_t width, size_t height, size_t pitch);
template <class T, int dim, enum cudaTextureReadMode readMode>
cudaError_t cudaBindTextureToArray(const struct texture<T, dim, readMode> &tex,
                                   cudaArray_const_t array);
template <class T, int dim, enum cudaTextureReadMode readMode>
cudaError_t cudaUnbindTexture(const struct texture<T, dim, readMode> &tex);

#endif /* WARPSAFE_TEXTURE_H */
