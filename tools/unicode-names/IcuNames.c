#include <stdio.h>
#include <unicode/uchar.h>
#include <unicode/uversion.h>
int main(void) {
  UVersionInfo v; u_getUnicodeVersion(v); fprintf(stderr, "Unicode %d.%d\n", v[0], v[1]);
  char name[256];
  for (UChar32 cp = 0; cp <= 0x10FFFF; cp++) {
    if (u_charType(cp) == U_UNASSIGNED) continue;
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = u_charName(cp, U_UNICODE_CHAR_NAME, name, sizeof name, &e);
    if (U_FAILURE(e)) n = 0;
    name[n] = 0;
    const char *block = u_getPropertyValueName(UCHAR_BLOCK, ublock_getCode(cp), U_LONG_PROPERTY_NAME);
    printf("%X;%s;%s\n", cp, name, block ? block : "");
  }
  return 0;
}
