using Millrace.Compact;
using Millrace.Compact.Schema;
using Millrace.Nbt;
using Millrace.Nbt.Snbt;

namespace Millrace.Cli.Formats;

/// <summary>What a conversion writes, beyond the target format: the same settings for every verb that converts.</summary>
/// <param name="Target">The output format.</param>
/// <param name="Schema">The compact schema, to read or write compact frames.</param>
/// <param name="TypeName">The schema type JSON is encoded as.</param>
/// <param name="Flavour">The NBT flavour to write; Java when <see langword="null"/>.</param>
/// <param name="NbtCompression">The NBT compression to write; the input's when <see langword="null"/>.</param>
/// <param name="CompactCompression">The compact frame's compression.</param>
/// <param name="ZstdDictionary">The zstd dictionary compact frames are written and read with, if any.</param>
/// <param name="SnbtSyntax">The grammar SNBT is read and written in.</param>
internal sealed record ConversionSettings(
    FileFormatKind Target,
    CompactSchemaSet? Schema = null,
    string? TypeName = null,
    NbtFormat? Flavour = null,
    NbtCompression? NbtCompression = null,
    CompactCompression CompactCompression = CompactCompression.Auto,
    CompactZstdDictionary? ZstdDictionary = null,
    SnbtSyntax SnbtSyntax = SnbtSyntax.Modern);
