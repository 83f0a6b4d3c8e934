using System.Buffers;
using System.Text;
using System.Text.Json;
using Millrace.Cli.Nbt;
using Millrace.Compact;
using Millrace.Json;
using Millrace.Compact.Schema;
using Millrace.Nbt;
using Millrace.Nbt.Snbt;

namespace Millrace.Cli.Formats;

/// <summary>
/// The one conversion engine of the tool: how each format is recognized, read into a <see cref="FileValue"/>, and
/// written from one. <c>nbt convert</c>, <c>compact encode</c> and <c>batch convert</c> all convert through it, so the same
/// input becomes the same output whichever verb converts it.
/// </summary>
internal static class FileFormats
{
    /// <summary>Recognizes a file's format by its extension.</summary>
    /// <returns>The format, or <see langword="null"/> for a file of another kind.</returns>
    public static FileFormatKind? Of(string path) => Path.GetExtension(path).ToUpperInvariant() switch
    {
        ".NBT" or ".DAT" or ".DAT_OLD" or ".SCHEM" or ".SCHEMATIC" or ".LITEMATIC" => FileFormatKind.Nbt,
        ".SNBT" => FileFormatKind.Snbt,
        ".JSON" => FileFormatKind.Json,
        ".MRC" or ".BIN" => FileFormatKind.Compact,
        _ => null,
    };

    /// <summary>Gets the extension a converted file gets.</summary>
    public static string ExtensionOf(FileFormatKind format) => format switch
    {
        FileFormatKind.Nbt => ".nbt",
        FileFormatKind.Snbt => ".snbt",
        FileFormatKind.Json => ".json",
        _ => ".mrc",
    };

    /// <summary>
    /// The most bytes of an input in <paramref name="format"/> the tool reads, whichever verb reads it: what that format's
    /// reader accepts. NBT and SNBT: the tree's byte quota (<see cref="NbtReaderConstants.MaxBytes"/>); JSON and compact
    /// frames: the compact body limit (<see cref="CompactLimitsConstants.MaxBodyLength"/>), a frame with room for its
    /// header (version, flags, a type id of up to five bytes) and a compressed body's few bytes of growth.
    /// </summary>
    public static long MaxInputBytes(FileFormatKind format) => format switch
    {
        FileFormatKind.Nbt or FileFormatKind.Snbt => NbtReaderConstants.MaxBytes,
        FileFormatKind.Json => CompactLimitsConstants.MaxBodyLength,
        _ => CompactLimitsConstants.MaxBodyLength + 16L,
    };

    /// <summary>Whether <paramref name="source"/> converts to <paramref name="target"/>: NBT and SNBT to NBT, SNBT and JSON; JSON and compact to JSON; JSON to compact.</summary>
    public static bool CanConvert(FileFormatKind source, FileFormatKind target) => (ReadsAsNbt(source), target) switch
    {
        (true, FileFormatKind.Nbt or FileFormatKind.Snbt or FileFormatKind.Json) => true,
        (false, FileFormatKind.Json) => true,
        (false, FileFormatKind.Compact) => source == FileFormatKind.Json,
        _ => false,
    };

    /// <summary>Converts a file's bytes, for an output wanted whole (a compact frame).</summary>
    /// <exception cref="MillraceException">The input is malformed (NBT, SNBT, compact), or cannot be written in the target.</exception>
    /// <exception cref="JsonException">JSON input is malformed.</exception>
    public static byte[] Convert(byte[] input, FileFormatKind source, ConversionSettings settings)
    {
        using var output = new MemoryStream();
        Write(Read(input, source, settings), settings, output);
        return output.ToArray();
    }

    /// <summary>Reads a file's bytes.</summary>
    /// <param name="input">The bytes.</param>
    /// <param name="source">Their format.</param>
    /// <param name="settings">The compact schema, for compact input; the SNBT syntax, for SNBT.</param>
    /// <param name="flavour">The NBT flavour, or <see langword="null"/> to detect Java or Bedrock.</param>
    public static FileValue Read(byte[] input, FileFormatKind source, ConversionSettings? settings = null, NbtFormat? flavour = null) => source switch
    {
        FileFormatKind.Nbt => new NbtValue(NbtFile.Read(input, flavour)),

        // SNBT becomes the root of a Java file, gzip-compressed as Minecraft stores its NBT files.
        FileFormatKind.Snbt => new NbtValue(new NbtFile(
            new NbtDocument(string.Empty, SnbtParser.ParseUtf8(input, new NbtReaderOptions { SnbtSyntax = settings?.SnbtSyntax ?? SnbtSyntax.Modern })),
            NbtFormat.Java,
            NbtCompression.Gzip)),
        FileFormatKind.Json => new JsonValue(CheckJson(input)),
        _ => new JsonValue(Json(writer => CompactJson.Decode(RequireSchema(settings), input, writer, zstdDictionary: settings?.ZstdDictionary))),
    };

    /// <summary>
    /// Writes a value in the settings' target format to <paramref name="output"/>, the text formats (SNBT, JSON) as they
    /// are produced, a few kilobytes at a time, never built whole first.
    /// </summary>
    /// <exception cref="ArgumentException">A value the target cannot carry (an unpaired surrogate in Bedrock's UTF-8, a NaN in SNBT); what came before it is written.</exception>
    public static void Write(FileValue value, ConversionSettings settings, Stream output)
    {
        switch (value, settings.Target)
        {
            case (NbtValue nbt, FileFormatKind.Nbt):
                output.Write(WriteNbt(nbt.File, settings));
                break;
            case (NbtValue nbt, FileFormatKind.Snbt):
                using (var text = new StreamWriter(output, Utf8, bufferSize: 16 * 1024, leaveOpen: true))
                {
                    SnbtWriter.WriteTo(nbt.File.Document.Root, text, pretty: true, settings.SnbtSyntax);
                    text.Write('\n');
                }

                break;
            case (NbtValue nbt, FileFormatKind.Json):
                WriteJson(output, writer => NbtJsonWriter.Write(writer, nbt.File.Document.Root));
                break;
            case (JsonValue json, FileFormatKind.Json):
                WriteJson(output, writer =>
                {
                    using var document = JsonDocument.Parse(json.Utf8);
                    JsonStreaming.WriteTo(document.RootElement, writer);
                });
                break;
            case (JsonValue json, FileFormatKind.Compact):
                output.Write(WriteCompact(json.Utf8, settings));
                break;
            default:
                throw new NotSupportedException($"No conversion to {settings.Target}.");
        }
    }

    private static bool ReadsAsNbt(FileFormatKind format) => format is FileFormatKind.Nbt or FileFormatKind.Snbt;

    // The flavour given, else Java; the compression given, else the input's; a level.dat header only in Bedrock; the
    // Java network flavour has no root name.
    private static byte[] WriteNbt(NbtFile file, ConversionSettings settings)
    {
        var format = settings.Flavour ?? NbtFormat.Java;
        return (file with
        {
            Format = format,
            Compression = settings.NbtCompression ?? file.Compression,
            LevelDatVersion = format == NbtFormat.Bedrock ? file.LevelDatVersion : null,
            Document = format == NbtFormat.JavaNetwork ? file.Document with { Name = null } : file.Document with { Name = file.Document.Name ?? string.Empty },
        }).ToArray();
    }

    private static byte[] WriteCompact(byte[] json, ConversionSettings settings)
    {
        using var document = JsonDocument.Parse(json);
        try
        {
            return CompactJson.Encode(RequireSchema(settings), settings.TypeName ?? throw new InvalidOperationException("Compact frames need --type."), document.RootElement, settings.CompactCompression, settings.ZstdDictionary);
        }
        catch (CompactFormatException exception)
        {
            // A parsed document's values carry no positions, so the encoder says where by the path: the text says at which byte.
            throw new MillraceException(exception.Error with { ByteOffset = JsonValueOffsets.Find(json, exception.Path, repeated: exception.Error.Code == CompactErrorCodes.Repeated) });
        }
    }

    // Well-formed and UTF-8, as every JSON reader of the library checks; of two faults, the first in the text is said.
    private static byte[] CheckJson(byte[] input)
    {
        var notUtf8 = JsonText.CheckUtf8(input);
        var reader = new Utf8JsonReader(input);
        try
        {
            while (reader.Read())
            {
            }
        }
        catch (JsonException) when (notUtf8 is not null && notUtf8.ByteOffset < reader.BytesConsumed)
        {
            throw new MillraceException(notUtf8);
        }

        return notUtf8 is null ? input : throw new MillraceException(notUtf8);
    }

    private static CompactSchemaSet RequireSchema(ConversionSettings? settings) =>
        settings?.Schema ?? throw new InvalidOperationException("Compact frames need --schema.");

    private static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false);

    private static JsonWriterOptions Indented => new() { Indented = true };

    /// <summary>JSON produced by <paramref name="write"/> as a value whole in memory: a compact frame decoded for reading.</summary>
    private static byte[] Json(Action<Utf8JsonWriter> write)
    {
        var output = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(output, Indented))
        {
            write(writer);
        }

        output.Write("\n"u8);
        return output.WrittenSpan.ToArray();
    }

    /// <summary>JSON produced by <paramref name="write"/>, to <paramref name="output"/> as the writer flushes it (<see cref="JsonStreaming"/>).</summary>
    private static void WriteJson(Stream output, Action<Utf8JsonWriter> write)
    {
        using (var writer = new Utf8JsonWriter(output, Indented))
        {
            write(writer);
        }

        output.Write("\n"u8);
    }
}
