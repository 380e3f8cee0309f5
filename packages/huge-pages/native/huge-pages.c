/*
 * The one call Node has no way to make: madvise(MADV_HUGEPAGE) on a buffer's memory, so that Linux
 * backs it with 2 MiB pages when it is first written (as numpy does for its arrays). Where
 * transparent huge pages are in `madvise` mode, a 256 MiB result otherwise takes 65,536 page
 * faults instead of 128, and in some virtual machines each fault costs ~10 us. And where a view's
 * memory is, so that what holds the advice can be read back from /proc/self/smaps.
 */
#define NAPI_VERSION 8
#include <errno.h>
#include <node_api.h>
#include <stdint.h>
#include <sys/mman.h>

#define HUGE_PAGE ((uintptr_t)2 << 20)

static size_t element_size(napi_typedarray_type type) {
  switch (type) {
    case napi_int8_array:
    case napi_uint8_array:
    case napi_uint8_clamped_array:
      return 1;
    case napi_int16_array:
    case napi_uint16_array:
      return 2;
    case napi_int32_array:
    case napi_uint32_array:
    case napi_float32_array:
      return 4;
    default:
      return 8;
  }
}

/* The memory of a typed array or DataView: false (with a TypeError thrown) for anything else. */
static bool view_memory(napi_env env, napi_callback_info info, const char *usage, void **data, size_t *bytes) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) {
    napi_throw_type_error(env, NULL, usage);
    return false;
  }
  bool is_typed = false, is_view = false;
  napi_is_typedarray(env, argv[0], &is_typed);
  napi_is_dataview(env, argv[0], &is_view);
  *data = NULL;
  *bytes = 0;
  if (is_typed) {
    napi_typedarray_type type;
    size_t length = 0;
    if (napi_get_typedarray_info(env, argv[0], &type, &length, data, NULL, NULL) != napi_ok) *data = NULL;
    *bytes = length * element_size(type);
  } else if (is_view) {
    if (napi_get_dataview_info(env, argv[0], bytes, data, NULL, NULL) != napi_ok) *data = NULL;
  } else {
    napi_throw_type_error(env, NULL, usage);
    return false;
  }
  return true;
}

/* advise(view): bytes of the view's memory now advised (its 2 MiB-aligned middle), 0 when none
 * is, or -errno when the kernel refused. */
static napi_value advise(napi_env env, napi_callback_info info) {
  void *data;
  size_t bytes;
  if (!view_memory(env, info, "advise(view) needs a typed array or DataView", &data, &bytes)) return NULL;
  double result = 0;
  if (data != NULL && bytes > 0) {
    uintptr_t start = ((uintptr_t)data + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t end = ((uintptr_t)data + bytes) & ~(HUGE_PAGE - 1);
    if (end > start) result = madvise((void *)start, end - start, MADV_HUGEPAGE) == 0 ? (double)(end - start) : -(double)errno;
  }
  napi_value out;
  napi_create_double(env, result, &out);
  return out;
}

/* address(view): where the view's memory starts, as a BigInt, so that JavaScript can find it in
 * /proc/self/smaps (which says which memory holds the advice); 0n for no memory. */
static napi_value address(napi_env env, napi_callback_info info) {
  void *data;
  size_t bytes;
  if (!view_memory(env, info, "address(view) needs a typed array or DataView", &data, &bytes)) return NULL;
  napi_value out;
  napi_create_bigint_uint64(env, (uint64_t)(uintptr_t)data, &out);
  return out;
}

static bool export_function(napi_env env, napi_value exports, const char *name, napi_callback fn) {
  napi_value value;
  return napi_create_function(env, name, NAPI_AUTO_LENGTH, fn, NULL, &value) == napi_ok &&
         napi_set_named_property(env, exports, name, value) == napi_ok;
}

NAPI_MODULE_INIT() {
  if (!export_function(env, exports, "advise", advise) || !export_function(env, exports, "address", address)) return NULL;
  return exports;
}
