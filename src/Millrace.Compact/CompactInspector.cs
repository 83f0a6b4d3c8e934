using System.Globalization;
using System.Text;
using System.Text.Unicode;
using Millrace.Compact.Wire;

namespace Millrace.Compact;

/// <summary>
/// Dumps a frame without its schema: the header, then each field's index, wire type and value. A length-delimited
/// value shows as a string when it is printable UTF-8, as nested fields when it parses as fields, else as hex.
/// </summary>
public static class CompactInspector
{
    /// <summary>Describes a frame, one line per field.</summary>
    /// <param name="frame">The frame.</param>
    /// <param name="limits">The body and depth limits.</param>
    /// <param name="zstdDictionary">The dictionary a zstd body was compressed with, if any.</param>
    /// <returns>The dump.</returns>
    /// <exception cref="CompactFormatException">The frame is malformed.</exception>
    public static string Describe(ReadOnlyMemory<byte> frame, CompactLimits? limits = null, CompactZstdDictionary? zstdDictionary = null)
    {
        limits ??= CompactLimits.Default;
        var body = CompactFrame.Read(frame, limits, out var typeId, out var isCollection, out var compression, zstdDictionary);
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"frame: version {CompactFrame.Version}, type {typeId}, {(isCollection ? "collection" : "single")}, compression {compression.ToString().ToLowerInvariant()}, body {body.Length} bytes\n");
        var reader = new CompactReader(body.Span);
        if (!isCollection)
        {
            Fields(ref reader, text, 0, limits.MaxDepth);
            return text.ToString();
        }

        var count = reader.ReadCount(limits.MaxCollectionCount, 1);
        for (var i = 0; i < count; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"[{i}]\n");
            var record = new CompactReader(reader.ReadLengthDelimited(out var start), start);
            Fields(ref record, text, 1, limits.MaxDepth);
        }

        return text.ToString();
    }

    private static void Fields(ref CompactReader reader, StringBuilder text, int depth, int maxDepth)
    {
        while (reader.TryReadKey(out var index, out var wireType))
        {
            text.Append(' ', depth * 2).Append(CultureInfo.InvariantCulture, $"{index} {wireType}: ");
            switch (wireType)
            {
                case WireType.Varint:
                    var value = reader.ReadVarint();
                    text.Append(CultureInfo.InvariantCulture, $"{value} (zigzag {ZigZag.Decode(value)})\n");
                    break;
                case WireType.Fixed32:
                    var bits32 = reader.ReadFixed32();
                    text.Append(CultureInfo.InvariantCulture, $"0x{bits32:X8} (float {BitConverter.UInt32BitsToSingle(bits32)})\n");
                    break;
                case WireType.Fixed64:
                    var bits64 = reader.ReadFixed64();
                    text.Append(CultureInfo.InvariantCulture, $"0x{bits64:X16} (double {BitConverter.UInt64BitsToDouble(bits64)})\n");
                    break;
                default:
                    var bytes = reader.ReadLengthDelimited(out var start);
                    LengthDelimited(bytes, start, text, depth, maxDepth);
                    break;
            }
        }
    }

    private static void LengthDelimited(ReadOnlySpan<byte> bytes, int start, StringBuilder text, int depth, int maxDepth)
    {
        if (Utf8.IsValid(bytes) && Encoding.UTF8.GetString(bytes) is var candidate && !candidate.Any(char.IsControl))
        {
            text.Append('"').Append(candidate).Append("\"\n");
            return;
        }

        if (depth < maxDepth && ParsesAsFields(bytes, start))
        {
            text.Append(CultureInfo.InvariantCulture, $"{{{bytes.Length} bytes of fields}}\n");
            var nested = new CompactReader(bytes, start);
            Fields(ref nested, text, depth + 1, maxDepth);
            return;
        }

        text.Append(CultureInfo.InvariantCulture, $"{bytes.Length} bytes: {Convert.ToHexString(bytes)}\n");
    }

    private static bool ParsesAsFields(ReadOnlySpan<byte> bytes, int start)
    {
        var reader = new CompactReader(bytes, start);
        try
        {
            while (reader.TryReadKey(out _, out var wireType))
            {
                reader.Skip(wireType);
            }

            return true;
        }
        catch (CompactFormatException)
        {
            return false;
        }
    }
}
