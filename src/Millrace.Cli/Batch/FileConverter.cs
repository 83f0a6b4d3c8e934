using System.Buffers;
using System.Text;
using System.Text.Json;
using Millrace.Cli.Nbt;
using Millrace.Compact;
using Millrace.Compact.Schema;
using Millrace.Nbt;
using Millrace.Nbt.Snbt;

namespace Millrace.Cli.Batch;

/// <summary>What a batch conversion writes: the target format and, for compact frames, the schema.</summary>
/// <param name="Target">The format every file is converted to.</param>
/// <param name="Schema">The compact schema, needed to read or write compact frames.</param>
/// <param name="TypeName">The schema type JSON files are encoded as, for compact output.</param>
internal sealed record ConversionSettings(BatchFormat Target, CompactSchemaSet? Schema, string? TypeName);

/// <summary>
/// Converts one file's bytes between the batch formats. NBT and SNBT convert to NBT (Java, keeping the input's
/// compression, gzip for SNBT), SNBT and JSON; JSON converts to compact frames (with a schema and type) and to
/// indented JSON; compact frames convert to JSON. Bad input throws the library's own typed exception, which says
/// where the problem is.
/// </summary>
internal static class FileConverter
{
    /// <summary>The format a file name says, or null for a file batch conversion ignores.</summary>
    public static BatchFormat? FormatOf(string path) => Path.GetExtension(path).ToUpperInvariant() switch
    {
        ".NBT" or ".DAT" or ".DAT_OLD" or ".SCHEM" or ".SCHEMATIC" or ".LITEMATIC" => BatchFormat.Nbt,
        ".SNBT" => BatchFormat.Snbt,
        ".JSON" => BatchFormat.Json,
        ".MRC" or ".BIN" => BatchFormat.Compact,
        _ => null,
    };

    /// <summary>The extension of an output file of <paramref name="format"/>.</summary>
    public static string ExtensionOf(BatchFormat format) => format switch
    {
        BatchFormat.Nbt => ".nbt",
        BatchFormat.Snbt => ".snbt",
        BatchFormat.Json => ".json",
        _ => ".mrc",
    };

    /// <summary>Whether a file of <paramref name="source"/> format converts to <paramref name="target"/>.</summary>
    public static bool CanConvert(BatchFormat source, BatchFormat target) => (source, target) switch
    {
        (BatchFormat.Nbt or BatchFormat.Snbt, BatchFormat.Nbt or BatchFormat.Snbt or BatchFormat.Json) => true,
        (BatchFormat.Json, BatchFormat.Json or BatchFormat.Compact) => true,
        (BatchFormat.Compact, BatchFormat.Json) => true,
        _ => false,
    };

    /// <summary>Converts <paramref name="input"/>, a file of <paramref name="source"/> format.</summary>
    public static byte[] Convert(byte[] input, BatchFormat source, ConversionSettings settings) => (source, settings.Target) switch
    {
        (BatchFormat.Nbt or BatchFormat.Snbt, _) => FromNbt(ReadNbt(input, source), settings.Target),
        (BatchFormat.Json, BatchFormat.Compact) => ToCompact(input, settings),
        (BatchFormat.Json, _) => Json(writer =>
        {
            using var document = JsonDocument.Parse(input);
            document.WriteTo(writer);
        }),
        (BatchFormat.Compact, _) => Json(writer => CompactJson.Decode(RequireSchema(settings), input, writer)),
        _ => throw new NotSupportedException($"No conversion from {source} to {settings.Target}."),
    };

    private static NbtFile ReadNbt(byte[] input, BatchFormat source) => source == BatchFormat.Snbt ? NbtInput.ReadSnbt(input) : NbtFile.Read(input);

    private static byte[] FromNbt(NbtFile file, BatchFormat target) => target switch
    {
        BatchFormat.Snbt => Encoding.UTF8.GetBytes(SnbtWriter.Write(file.Document.Root, pretty: true) + "\n"),
        BatchFormat.Json => Json(writer => NbtJsonWriter.Write(writer, file.Document.Root)),
        _ => (file with
        {
            Format = NbtFormat.Java,
            LevelDatVersion = null,
            Document = file.Document with { Name = file.Document.Name ?? string.Empty },
        }).ToArray(),
    };

    private static byte[] ToCompact(byte[] input, ConversionSettings settings)
    {
        using var document = JsonDocument.Parse(input);
        return CompactJson.Encode(RequireSchema(settings), settings.TypeName!, document.RootElement, CompactCompression.Auto);
    }

    private static CompactSchemaSet RequireSchema(ConversionSettings settings) =>
        settings.Schema ?? throw new InvalidOperationException("Compact frames need --schema.");

    private static byte[] Json(Action<Utf8JsonWriter> write)
    {
        var output = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(output, new JsonWriterOptions { Indented = true }))
        {
            write(writer);
        }

        output.Write("\n"u8);
        return output.WrittenSpan.ToArray();
    }
}
