/*
 * svc_mmap: read-only, shared memory maps of column files for src/storage/mmap.ts, in-kernel copies of file
 * ranges (copy_file_range) for the FilesFacade (src/core/files.ts), and anonymous memory advised for huge pages
 * for src/core/huge-page-memory.ts; src/core/native-binding.ts loads it.
 * Written against Node-API alone (node_api.h, NAPI_VERSION 8): the ABI is stable across Node.js versions, so
 * one build serves every line from Node 20 on, and no V8 or C++ header is involved.
 * Owns each mapping it creates until the Buffer that exposes it is collected; the Buffer's finalizer unmaps it.
 *
 * Exports: map(sizeBytes, fd, offsetBytes, advice) -> Buffer, advise(buffer, advice), sync(buffer),
 * pageSize(), advice: { normal, sequential, random, willneed },
 * copyRange(sourceFd, targetFd, length, sourceOffset, targetOffset) -> bytes copied,
 * allocateHugePages(sizeBytes) -> Buffer of anonymous memory advised for transparent huge pages.
 *
 * The mapped size is deliberately not reported with napi_adjust_external_memory: mapped file pages live in the
 * kernel's page cache, not on the heap, and can be dropped and re-read at any time. Reporting gigabytes of
 * column files as external memory would make V8 run full collections continually for memory it cannot free
 * faster by collecting.
 */
/* _GNU_SOURCE: copy_file_range(2) is a GNU extension of glibc. */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <node_api.h>

/* Checks a Node-API call made where failure means a bug in this file or the runtime: throws and returns NULL. */
#define CALL(env, call)                                                             \
  do {                                                                              \
    if ((call) != napi_ok) {                                                        \
      throw_status((env), #call);                                                   \
      return NULL;                                                                  \
    }                                                                               \
  } while (0)

static void throw_status(napi_env env, const char* call) {
  /* The message first: every later Node-API call, napi_is_exception_pending included, resets the last error. */
  const napi_extended_error_info* info = NULL;
  char message[256];
  napi_get_last_error_info(env, &info);
  snprintf(message, sizeof message, "svc_mmap: %s failed: %s", call,
           info != NULL && info->error_message != NULL ? info->error_message : "unknown Node-API error");
  bool pending = false;
  if (napi_is_exception_pending(env, &pending) == napi_ok && pending) return;
  napi_throw_error(env, "ERR_SVC_MMAP", message);
}

/* Throws an Error whose message names the system call, its arguments and errno's text, with .errno set. */
static void throw_errno(napi_env env, int error_number, const char* what) {
  char message[384];
  snprintf(message, sizeof message, "%s failed: %s (errno %d)", what, strerror(error_number), error_number);
  napi_value text, code, error, number;
  if (napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &text) != napi_ok ||
      napi_create_string_utf8(env, "ERR_SVC_MMAP", NAPI_AUTO_LENGTH, &code) != napi_ok ||
      napi_create_error(env, code, text, &error) != napi_ok) {
    napi_throw_error(env, "ERR_SVC_MMAP", message);
    return;
  }
  if (napi_create_int32(env, error_number, &number) == napi_ok) napi_set_named_property(env, error, "errno", number);
  napi_throw(env, error);
}

/* Reads argument `index` as a whole number in [min, max]; throws a TypeError/RangeError naming it otherwise. */
static bool get_whole_number(napi_env env, napi_value value, const char* name, double min, double max, double* out) {
  napi_valuetype type;
  if (napi_typeof(env, value, &type) != napi_ok || type != napi_number) {
    char message[128];
    snprintf(message, sizeof message, "svc_mmap: %s must be a number", name);
    napi_throw_type_error(env, "ERR_SVC_MMAP", message);
    return false;
  }
  double number = 0;
  napi_get_value_double(env, value, &number);
  /* Doubles represent every integer up to 2^53 exactly, more than any file offset a Buffer can reach. */
  if (!(number >= min && number <= max) || number != (double)(int64_t)number) {
    char message[160];
    snprintf(message, sizeof message, "svc_mmap: %s must be a whole number in [%.0f, %.0f], got %g", name, min, max, number);
    napi_throw_range_error(env, "ERR_SVC_MMAP", message);
    return false;
  }
  *out = number;
  return true;
}

static bool is_known_advice(int32_t advice) {
  return advice == MADV_NORMAL || advice == MADV_SEQUENTIAL || advice == MADV_RANDOM || advice == MADV_WILLNEED;
}

/* madvise and msync need a page-aligned start: widen a sub-range view down to its page. */
static void page_align(void* data, size_t length, void** start, size_t* aligned_length) {
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t address = (uintptr_t)data;
  uintptr_t aligned = address & ~(page - 1);
  *start = (void*)aligned;
  *aligned_length = length + (size_t)(address - aligned);
}

/* The Buffer's finalizer: the hint carries the mapped length (a size_t fits in a pointer on every target). */
static void unmap_mapping(napi_env env, void* data, void* hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

static const double MAX_SAFE_INTEGER = 9007199254740991.0;

/* Reads exactly `count` arguments into argv; otherwise throws a TypeError with `usage` and answers false. */
static bool get_exact_args(napi_env env, napi_callback_info info, size_t count, napi_value* argv, const char* usage) {
  size_t argc = count;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) {
    throw_status(env, "napi_get_cb_info");
    return false;
  }
  if (argc != count) {
    napi_throw_type_error(env, "ERR_SVC_MMAP", usage);
    return false;
  }
  return true;
}

static napi_value map_file(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  if (!get_exact_args(env, info, 4, argv, "svc_mmap: map(sizeBytes, fd, offsetBytes, advice) takes 4 arguments")) return NULL;
  double size_number, fd_number, offset_number, advice_number;
  /* A 0-byte map is refused by mmap(2); the JS side answers it with an empty Buffer and never calls here. */
  if (!get_whole_number(env, argv[0], "sizeBytes", 1, (double)SIZE_MAX < MAX_SAFE_INTEGER ? (double)SIZE_MAX : MAX_SAFE_INTEGER, &size_number) ||
      !get_whole_number(env, argv[1], "fd", 0, INT32_MAX, &fd_number) ||
      !get_whole_number(env, argv[2], "offsetBytes", 0, MAX_SAFE_INTEGER, &offset_number) ||
      !get_whole_number(env, argv[3], "advice", INT32_MIN, INT32_MAX, &advice_number)) {
    return NULL;
  }
  size_t size = (size_t)size_number;
  int fd = (int)fd_number;
  off_t offset = (off_t)offset_number;
  int advice = (int)advice_number;
  if (!is_known_advice(advice)) {
    napi_throw_range_error(env, "ERR_SVC_MMAP", "svc_mmap: advice must be one of the exported advice constants");
    return NULL;
  }
  if (offset % sysconf(_SC_PAGESIZE) != 0) {
    napi_throw_range_error(env, "ERR_SVC_MMAP", "svc_mmap: offsetBytes must be a multiple of pageSize()");
    return NULL;
  }

  void* data = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, offset);
  if (data == MAP_FAILED) {
    char what[128];
    snprintf(what, sizeof what, "mmap(%zu bytes, fd %d, offset %lld)", size, fd, (long long)offset);
    throw_errno(env, errno, what);
    return NULL;
  }
  if (advice != MADV_NORMAL && madvise(data, size, advice) != 0) {
    int error_number = errno;
    munmap(data, size);
    throw_errno(env, error_number, "madvise");
    return NULL;
  }

  napi_value buffer;
  napi_status status = napi_create_external_buffer(env, size, data, unmap_mapping, (void*)(uintptr_t)size, &buffer);
  if (status == napi_no_external_buffers_allowed) {
    /* Runtimes with the V8 sandbox (Electron, some embedders) refuse memory they did not allocate; the finalizer
       was never registered, so the mapping is still ours to release. */
    munmap(data, size);
    napi_throw_error(env, "ERR_SVC_MMAP",
                     "svc_mmap: this runtime does not allow external buffers (V8 sandbox), so files cannot be memory-mapped");
    return NULL;
  }
  /* On any other failure Node has already handed the mapping to the finalizer, which unmaps it. */
  if (status != napi_ok) {
    throw_status(env, "napi_create_external_buffer");
    return NULL;
  }
  return buffer;
}

static bool get_buffer(napi_env env, napi_value value, void** data, size_t* length) {
  bool is_buffer = false;
  if (napi_is_buffer(env, value, &is_buffer) != napi_ok || !is_buffer) {
    napi_throw_type_error(env, "ERR_SVC_MMAP", "svc_mmap: buffer must be a Buffer returned by map()");
    return false;
  }
  return napi_get_buffer_info(env, value, data, length) == napi_ok;
}

static napi_value advise_buffer(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  void* data;
  size_t length;
  double advice_number;
  if (argc != 2 || !get_buffer(env, argv[0], &data, &length) ||
      !get_whole_number(env, argv[1], "advice", INT32_MIN, INT32_MAX, &advice_number)) {
    return NULL;
  }
  if (!is_known_advice((int)advice_number)) {
    napi_throw_range_error(env, "ERR_SVC_MMAP", "svc_mmap: advice must be one of the exported advice constants");
    return NULL;
  }
  if (length == 0) return NULL;
  void* start;
  size_t aligned_length;
  page_align(data, length, &start, &aligned_length);
  if (madvise(start, aligned_length, (int)advice_number) != 0) throw_errno(env, errno, "madvise");
  return NULL;
}

static napi_value sync_buffer(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CALL(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  void* data;
  size_t length;
  if (argc != 1 || !get_buffer(env, argv[0], &data, &length)) return NULL;
  if (length == 0) return NULL;
  void* start;
  size_t aligned_length;
  page_align(data, length, &start, &aligned_length);
  if (msync(start, aligned_length, MS_SYNC) != 0) throw_errno(env, errno, "msync");
  return NULL;
}

static napi_value page_size(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  CALL(env, napi_create_int64(env, (int64_t)sysconf(_SC_PAGESIZE), &result));
  return result;
}

static napi_value create_advice(napi_env env) {
  static const struct { const char* name; int value; } constants[] = {
    {"normal", MADV_NORMAL}, {"sequential", MADV_SEQUENTIAL}, {"random", MADV_RANDOM}, {"willneed", MADV_WILLNEED},
  };
  napi_value advice;
  CALL(env, napi_create_object(env, &advice));
  for (size_t k = 0; k < sizeof constants / sizeof constants[0]; k++) {
    napi_value value;
    CALL(env, napi_create_int32(env, constants[k].value, &value));
    CALL(env, napi_set_named_property(env, advice, constants[k].name, value));
  }
  CALL(env, napi_object_freeze(env, advice));
  return advice;
}

/*
 * copyRange(sourceFd, targetFd, length, sourceOffset, targetOffset): copy_file_range(2), so the bytes move
 * inside the kernel, never through a buffer of the process (a clone of the blocks where the file system shares
 * them, as XFS and Btrfs do). Returns the bytes copied: fewer than `length` at the source's end, or when the
 * kernel cannot copy between these files (EXDEV, EOPNOTSUPP, ENOSYS, EINVAL), where the caller copies the rest
 * itself. Any other failure (EIO, ENOSPC, ...) throws with .errno. File offsets of the descriptors are unused.
 */
static napi_value copy_range(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  if (!get_exact_args(env, info, 5, argv, "svc_mmap: copyRange(sourceFd, targetFd, length, sourceOffset, targetOffset) takes 5 arguments")) return NULL;
  double source_number, target_number, length_number, source_offset_number, target_offset_number;
  if (!get_whole_number(env, argv[0], "sourceFd", 0, INT32_MAX, &source_number) ||
      !get_whole_number(env, argv[1], "targetFd", 0, INT32_MAX, &target_number) ||
      !get_whole_number(env, argv[2], "length", 0, MAX_SAFE_INTEGER, &length_number) ||
      !get_whole_number(env, argv[3], "sourceOffset", 0, MAX_SAFE_INTEGER, &source_offset_number) ||
      !get_whole_number(env, argv[4], "targetOffset", 0, MAX_SAFE_INTEGER, &target_offset_number)) {
    return NULL;
  }
  off_t source_offset = (off_t)source_offset_number;
  off_t target_offset = (off_t)target_offset_number;
  uint64_t left = (uint64_t)length_number;
  uint64_t copied = 0;
  while (left > 0) {
    /* At most 1 GiB a call: the count is a size_t, and a bounded call returns to the loop for EINTR. */
    size_t step = left > ((uint64_t)1 << 30) ? ((size_t)1 << 30) : (size_t)left;
    ssize_t done = copy_file_range((int)source_number, &source_offset, (int)target_number, &target_offset, step, 0);
    if (done < 0) {
      if (errno == EINTR) continue;
      if (errno == EXDEV || errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL) break;
      throw_errno(env, errno, "copy_file_range");
      return NULL;
    }
    if (done == 0) break;
    left -= (uint64_t)done;
    copied += (uint64_t)done;
  }
  napi_value result;
  CALL(env, napi_create_double(env, (double)copied, &result));
  return result;
}

/* The size of a transparent huge page on x86-64 and on arm64 with 4 KiB pages; on others a mere alignment. */
static const size_t HUGE_PAGE_BYTES = (size_t)2 << 20;

/* The finalizer of allocateHugePages' Buffers: unmaps the memory and tells V8 it is gone. */
static void release_anonymous(napi_env env, void* data, void* hint) {
  size_t length = (size_t)(uintptr_t)hint;
  munmap(data, length);
  int64_t ignored;
  napi_adjust_external_memory(env, -(int64_t)length, &ignored);
}

/*
 * allocateHugePages(sizeBytes): zeroed, private, anonymous memory starting on a huge-page boundary, with
 * madvise(MADV_HUGEPAGE), so that where transparent huge pages are enabled for advised memory (`madvise`, the
 * usual distribution default) the kernel backs it with 2 MiB pages: one page fault per 2 MiB first touched
 * instead of 512. For the large buffers a process keeps and reuses. The advice is a hint: a kernel without
 * transparent huge pages refuses it and the memory serves all the same. The size is reported to V8 as external
 * memory, as an ArrayBuffer of that size would be, so collections free a dropped Buffer as promptly.
 */
static napi_value allocate_huge_pages(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!get_exact_args(env, info, 1, argv, "svc_mmap: allocateHugePages(sizeBytes) takes 1 argument")) return NULL;
  double size_number;
  if (!get_whole_number(env, argv[0], "sizeBytes", 1, (double)(SIZE_MAX / 2) < MAX_SAFE_INTEGER ? (double)(SIZE_MAX / 2) : MAX_SAFE_INTEGER, &size_number)) return NULL;
  size_t size = (size_t)size_number;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t length = (size + page - 1) / page * page;
  /* Over-reserve by one huge page, then give back what lies before the first boundary and after the end. */
  size_t reserved = length + HUGE_PAGE_BYTES;
  void* raw = mmap(NULL, reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    char what[96];
    snprintf(what, sizeof what, "mmap(%zu anonymous bytes)", reserved);
    throw_errno(env, errno, what);
    return NULL;
  }
  uintptr_t start = ((uintptr_t)raw + HUGE_PAGE_BYTES - 1) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1);
  size_t head = (size_t)(start - (uintptr_t)raw);
  if (head > 0) munmap(raw, head);
  if (reserved - head > length) munmap((void*)(start + length), reserved - head - length);
#ifdef MADV_HUGEPAGE
  (void)madvise((void*)start, length, MADV_HUGEPAGE);
#endif
  /* Reported before the Buffer exists: from then on its finalizer takes the report back, whatever happens. */
  int64_t ignored;
  napi_adjust_external_memory(env, (int64_t)length, &ignored);
  napi_value buffer;
  napi_status status = napi_create_external_buffer(env, size, (void*)start, release_anonymous, (void*)(uintptr_t)length, &buffer);
  if (status == napi_no_external_buffers_allowed) {
    /* The finalizer was never registered: the memory and the report are still ours to take back. */
    release_anonymous(env, (void*)start, (void*)(uintptr_t)length);
    napi_throw_error(env, "ERR_SVC_MMAP", "svc_mmap: this runtime does not allow external buffers (V8 sandbox)");
    return NULL;
  }
  /* On any other failure Node has already handed the memory to the finalizer, which releases it. */
  if (status != napi_ok) {
    throw_status(env, "napi_create_external_buffer");
    return NULL;
  }
  return buffer;
}

/* NAPI_MODULE_INIT registers a context-aware module: it also loads in worker threads. */
NAPI_MODULE_INIT(/* napi_env env, napi_value exports */) {
  napi_value advice = create_advice(env);
  if (advice == NULL) return NULL;
  napi_property_descriptor properties[] = {
    {"map", NULL, map_file, NULL, NULL, NULL, napi_enumerable, NULL},
    {"advise", NULL, advise_buffer, NULL, NULL, NULL, napi_enumerable, NULL},
    {"sync", NULL, sync_buffer, NULL, NULL, NULL, napi_enumerable, NULL},
    {"pageSize", NULL, page_size, NULL, NULL, NULL, napi_enumerable, NULL},
    {"copyRange", NULL, copy_range, NULL, NULL, NULL, napi_enumerable, NULL},
    {"allocateHugePages", NULL, allocate_huge_pages, NULL, NULL, NULL, napi_enumerable, NULL},
    {"advice", NULL, NULL, NULL, NULL, advice, napi_enumerable, NULL},
  };
  CALL(env, napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties));
  return exports;
}
