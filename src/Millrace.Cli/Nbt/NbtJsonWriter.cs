using System.Globalization;
using System.Text.Json;
using Millrace.Cli.Formats;
using Millrace.Nbt.Tags;

namespace Millrace.Cli.Nbt;

/// <summary>
/// Writes an NBT tag as plain JSON for tools that cannot read NBT: compounds become objects, lists and arrays
/// become arrays, numbers become numbers. The tag types are not kept (use SNBT for a lossless text form), and
/// non-finite floats, which JSON cannot hold, become the strings "NaN", "Infinity" and "-Infinity".
/// </summary>
internal static class NbtJsonWriter
{
    /// <summary>Writes <paramref name="tag"/> to <paramref name="writer"/>.</summary>
    public static void Write(Utf8JsonWriter writer, NbtTag tag)
    {
        switch (tag)
        {
            case NbtCompound compound:
                writer.WriteStartObject();
                foreach (var (name, child) in compound)
                {
                    writer.WritePropertyName(name);
                    Write(writer, child);
                }

                writer.WriteEndObject();
                break;
            case NbtList list:
                writer.WriteStartArray();
                foreach (var item in list)
                {
                    Write(writer, item);
                }

                writer.WriteEndArray();
                break;
            case NbtString text:
                writer.WriteStringValue(text.Value);
                break;
            case NbtByte number:
                writer.WriteNumberValue(number.Value);
                break;
            case NbtShort number:
                writer.WriteNumberValue(number.Value);
                break;
            case NbtInt number:
                writer.WriteNumberValue(number.Value);
                break;
            case NbtLong number:
                writer.WriteNumberValue(number.Value);
                break;
            case NbtFloat number when float.IsFinite(number.Value):
                writer.WriteNumberValue(number.Value);
                break;
            case NbtFloat number:
                writer.WriteStringValue(number.Value.ToString(CultureInfo.InvariantCulture));
                break;
            case NbtDouble number when double.IsFinite(number.Value):
                writer.WriteNumberValue(number.Value);
                break;
            case NbtDouble number:
                writer.WriteStringValue(number.Value.ToString(CultureInfo.InvariantCulture));
                break;
            case NbtByteArray array:
                WriteArray(writer, array.Value, static (w, v) => w.WriteNumberValue((sbyte)v));
                break;
            case NbtIntArray array:
                WriteArray(writer, array.Value, static (w, v) => w.WriteNumberValue(v));
                break;
            case NbtLongArray array:
                WriteArray(writer, array.Value, static (w, v) => w.WriteNumberValue(v));
                break;
            default:
                throw new NotSupportedException($"The tag type {tag.GetType().Name} has no JSON form.");
        }

        JsonStreaming.FlushIfFull(writer);
    }

    private static void WriteArray<T>(Utf8JsonWriter writer, T[] values, Action<Utf8JsonWriter, T> write)
    {
        writer.WriteStartArray();
        foreach (var value in values)
        {
            write(writer, value);
        }

        writer.WriteEndArray();
    }
}
