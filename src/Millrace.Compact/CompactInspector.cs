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
        limits.Validate();
        var body = CompactFrame.BodyOf(frame, limits, out var typeId, out var isCollection, out var compression, zstdDictionary);
        var text = new StringBuilder(256, limits.MaxDescriptionLength);
        text.Append(CultureInfo.InvariantCulture, $"frame: version {CompactFrame.Version}, type {typeId}, {(isCollection ? "collection" : "single")}, compression {CompactFrame.Name(compression)}{(CompactFrame.HasKeySteps(frame.Span) ? " (keys as steps)" : "")}, body {body.Length} bytes\n");
        try
        {
            var inspection = new Inspection(text, limits);
            var reader = new CompactReader(body.Span);
            if (!isCollection)
            {
                inspection.Fields(ref reader, 0);
                return text.ToString();
            }

            var count = reader.ReadCount(limits.MaxCollectionCount, 1);
            for (var i = 0; i < count; i++)
            {
                inspection.Charge(reader.Offset);
                text.Append(CultureInfo.InvariantCulture, $"[{i}]\n");
                var record = new CompactReader(reader.ReadLengthDelimited(out var start), start);
                inspection.Fields(ref record, 1);
            }

            // As a decode does: bytes after the last record are not a record the dump could show.
            if (!reader.End)
            {
                CompactThrow.TrailingBytes("record of the collection", reader.Offset);
            }

            return text.ToString();
        }
        catch (CompactFormatException exception) when (CompactFrame.ScopeBodyOffset(exception, frame, body, compression))
        {
            throw;
        }
        catch (ArgumentOutOfRangeException) when (text.Length + 256 > text.MaxCapacity)
        {
            // The text reached its limit in the middle of a line.
            throw DescriptionTooLong(limits, body.Length);
        }
    }

    private static CompactFormatException DescriptionTooLong(CompactLimits limits, int offset) => new(
        CompactErrorCodes.Limit,
        string.Create(CultureInfo.InvariantCulture, $"The description would pass the limit of {limits.MaxDescriptionLength} characters."),
        offset);

    /// <summary>
    /// One description's work: every field it reads, including the trial parses of byte strings that might hold fields,
    /// is charged against <see cref="CompactLimits.MaxFieldCount"/>, so work and text grow with the bytes read and stop
    /// at the limit however the body is shaped.
    /// </summary>
    private sealed class Inspection(StringBuilder text, CompactLimits limits)
    {
        private long _fields;

        public void Charge(int offset)
        {
            if (++_fields > limits.MaxFieldCount)
            {
                CompactThrow.Limit(string.Create(CultureInfo.InvariantCulture, $"The body holds more than the limit of {limits.MaxFieldCount} fields and elements."), offset);
            }
        }

        public void Fields(ref CompactReader reader, int depth)
        {
            while (reader.TryReadKey(out var index, out var wireType))
            {
                Charge(reader.Offset);
                text.Append(' ', depth * 2).Append(CultureInfo.InvariantCulture, $"{index} {wireType}: ");
                switch (wireType)
                {
                    case WireType.Varint:
                        var value = reader.ReadVarint();
                        // Without the schema either reading may be meant; a two's complement negative is only worth naming above 2^63.
                        text.Append(CultureInfo.InvariantCulture, $"{value} (zigzag {ZigZag.Decode(value)}");
                        if (value > long.MaxValue)
                        {
                            text.Append(CultureInfo.InvariantCulture, $", two's complement {(long)value}");
                        }

                        text.Append(")\n");
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
                        LengthDelimited(bytes, start, depth);
                        break;
                }
            }
        }

        private void LengthDelimited(ReadOnlySpan<byte> bytes, int start, int depth)
        {
            // A value's text is made before it is appended (a string, or two hex digits a byte): it must fit first.
            if (Utf8.IsValid(bytes) && IsPrintable(bytes))
            {
                Fits(bytes.Length + 3, start);
                text.Append('"').Append(Encoding.UTF8.GetString(bytes)).Append("\"\n");
                return;
            }

            if (depth < limits.MaxDepth && ParsesAsFields(bytes, start))
            {
                text.Append(CultureInfo.InvariantCulture, $"{{{bytes.Length} bytes of fields}}\n");
                var nested = new CompactReader(bytes, start);
                Fields(ref nested, depth + 1);
                return;
            }

            Fits((2L * bytes.Length) + 32, start);
            text.Append(CultureInfo.InvariantCulture, $"{bytes.Length} bytes: {Convert.ToHexString(bytes)}\n");
        }

        private static bool IsPrintable(ReadOnlySpan<byte> utf8)
        {
            while (!utf8.IsEmpty)
            {
                Rune.DecodeFromUtf8(utf8, out var rune, out var used);
                if (Rune.IsControl(rune))
                {
                    return false;
                }

                utf8 = utf8[used..];
            }

            return true;
        }

        private void Fits(long length, int offset)
        {
            if (text.Length + length > text.MaxCapacity)
            {
                throw DescriptionTooLong(limits, offset);
            }
        }

        private bool ParsesAsFields(ReadOnlySpan<byte> bytes, int start)
        {
            var reader = new CompactReader(bytes, start);
            try
            {
                while (reader.TryReadKey(out _, out var wireType))
                {
                    Charge(reader.Offset);
                    reader.Skip(wireType);
                }

                return true;
            }
            catch (CompactFormatException) when (_fields <= limits.MaxFieldCount)
            {
                return false;
            }
        }
    }
}
