/* The ten-line program of the README: create a device, fill and copy a
 * buffer, read the result back. */
#include <isapack/isapack.h>
#include <stdio.h>

int main(void) {
  isapack_device_t dev;
  unsigned char *a, *b;
  isapack_status_t s = isapack_device_create(NULL, &dev);
  if (s) {
    fprintf(stderr, "isapack: %s\n", isapack_status_message(s));
    return 1;
  }
  isapack_device_alloc(dev, 64, ISAPACK_MEMORY_HOST_VISIBLE, (void**)&a);
  isapack_device_alloc(dev, 64, ISAPACK_MEMORY_HOST_VISIBLE, (void**)&b);
  isapack_device_fill(dev, a, 64, 0x2a, 1);
  isapack_device_copy(dev, b, a, 64);
  int ok = b[63] == 42;
  printf("b[63] = %d\n", b[63]);
  isapack_device_destroy(dev);
  return ok ? 0 : 1;
}
