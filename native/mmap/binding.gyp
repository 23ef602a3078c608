# svc's memory-mapping binding: one C file against Node-API only (node_api.h, NAPI_VERSION 8), so the one
# build loads in every Node.js line from 20 on. Built by scripts/build-native.mjs (the package's install script).
{
  "targets": [
    {
      "target_name": "svc_mmap",
      "sources": ["mmap.c"],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-std=c11", "-Wall", "-Wextra", "-Werror=implicit-function-declaration"],
      "xcode_settings": {"OTHER_CFLAGS": ["-std=c11", "-Wall", "-Wextra"]}
    }
  ]
}
