import java.io.*; import java.nio.charset.StandardCharsets;
public class JavaNames { public static void main(String[] a) throws Exception {
  try (PrintWriter w = new PrintWriter(new OutputStreamWriter(new FileOutputStream(a[0]), StandardCharsets.US_ASCII))) {
    int rangeStart = -1; String rangeBlock = null; int prev = -2;
    for (int cp = 0; cp <= 0x10FFFF; cp++) {
      String n = Character.getName(cp); if (n == null) continue;
      Character.UnicodeBlock b = Character.UnicodeBlock.of(cp);
      String block = b == null ? null : b.toString().replace('_', ' ');
      String fb = block == null ? Integer.toHexString(cp).toUpperCase() : block + " " + Integer.toHexString(cp).toUpperCase();
      if (n.equals(fb)) {
        if (rangeStart >= 0 && (cp != prev + 1 || !block.equals(rangeBlock))) { w.println("*" + Integer.toHexString(rangeStart).toUpperCase() + " " + Integer.toHexString(prev).toUpperCase() + " " + rangeBlock); rangeStart = -1; }
        if (rangeStart < 0) { rangeStart = cp; rangeBlock = block; }
        prev = cp;
      } else {
        w.println(Integer.toHexString(cp).toUpperCase() + " " + n);
      }
    }
    if (rangeStart >= 0) w.println("*" + Integer.toHexString(rangeStart).toUpperCase() + " " + Integer.toHexString(prev).toUpperCase() + " " + rangeBlock);
  }
}}
