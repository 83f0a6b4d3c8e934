using System.Text;
using Millrace.Nbt;
using Millrace.Nbt.Snbt;

namespace Millrace.Cli.Nbt;

/// <summary>How every verb reads SNBT into an NBT file, so <c>nbt show</c>, <c>nbt convert</c> and <c>batch convert</c> agree.</summary>
internal static class NbtInput
{
    /// <summary>Parses SNBT as the root of a Java file, gzip-compressed as Minecraft stores its NBT files.</summary>
    /// <exception cref="NbtFormatException">The text is not SNBT.</exception>
    public static NbtFile ReadSnbt(byte[] utf8) =>
        new(new NbtDocument(string.Empty, SnbtParser.Parse(Encoding.UTF8.GetString(utf8))), NbtFormat.Java, NbtCompression.Gzip);
}
