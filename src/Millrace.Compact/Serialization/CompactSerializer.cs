using System.Buffers;
using Millrace.Compact.Wire;

namespace Millrace.Compact.Serialization;

/// <summary>Writes and reads frames of <see cref="CompactSchemaAttribute"/> types.</summary>
public static class CompactSerializer
{
    /// <summary>Writes a single-record frame. Uncompressed, nothing is allocated when <paramref name="output"/> is reused.</summary>
    /// <typeparam name="T">A <see cref="CompactSchemaAttribute"/> type.</typeparam>
    /// <param name="value">The record.</param>
    /// <param name="output">Where the frame goes.</param>
    /// <param name="compression">The body compression.</param>
    /// <param name="zstdDictionary">The dictionary zstd compresses with, if any; readers need the same one.</param>
    public static void Serialize<T>(T value, IBufferWriter<byte> output, CompactCompression compression = CompactCompression.None, CompactZstdDictionary? zstdDictionary = null)
        where T : ICompactSerializable<T>
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(output);
        if (compression == CompactCompression.None)
        {
            CompactFrame.WriteHeader(output, T.TypeId, isCollection: false, CompactCompression.None);
            var direct = new CompactWriter(output);
            value.WriteFields(ref direct);
            direct.Flush();
            return;
        }

        using var body = new PooledBufferWriter();
        var writer = new CompactWriter(body);
        value.WriteFields(ref writer);
        writer.Flush();
        CompactFrame.Write(output, T.TypeId, isCollection: false, body.WrittenSpan, compression, zstdDictionary);
    }

    /// <summary>Writes a collection frame: the type header once, then each record length-delimited.</summary>
    /// <typeparam name="T">A <see cref="CompactSchemaAttribute"/> type.</typeparam>
    /// <param name="values">The records.</param>
    /// <param name="output">Where the frame goes.</param>
    /// <param name="compression">The body compression.</param>
    /// <param name="zstdDictionary">The dictionary zstd compresses with, if any; readers need the same one.</param>
    public static void SerializeMany<T>(IReadOnlyList<T> values, IBufferWriter<byte> output, CompactCompression compression = CompactCompression.None, CompactZstdDictionary? zstdDictionary = null)
        where T : ICompactSerializable<T>
    {
        ArgumentNullException.ThrowIfNull(values);
        ArgumentNullException.ThrowIfNull(output);
        if (compression == CompactCompression.None)
        {
            CompactFrame.WriteHeader(output, T.TypeId, isCollection: true, CompactCompression.None);
            var direct = new CompactWriter(output);
            WriteRecords(ref direct, values);
            return;
        }

        using var body = new PooledBufferWriter();
        var writer = new CompactWriter(body);
        WriteRecords(ref writer, values);
        CompactFrame.Write(output, T.TypeId, isCollection: true, body.WrittenSpan, compression, zstdDictionary);
    }

    private static void WriteRecords<T>(ref CompactWriter writer, IReadOnlyList<T> values)
        where T : ICompactSerializable<T>
    {
        writer.WriteVarint((ulong)values.Count);
        foreach (var value in values)
        {
            CompactValues.WriteRecord(ref writer, value);
        }

        writer.Flush();
    }

    /// <summary>Reads a single-record frame.</summary>
    /// <typeparam name="T">A <see cref="CompactSchemaAttribute"/> type.</typeparam>
    /// <param name="frame">The frame.</param>
    /// <param name="limits">The limits.</param>
    /// <param name="zstdDictionary">The dictionary a zstd body was compressed with, if any.</param>
    /// <returns>The record.</returns>
    /// <exception cref="CompactFormatException">The frame is malformed, is a collection, or holds another type.</exception>
    public static T Deserialize<T>(ReadOnlyMemory<byte> frame, CompactLimits? limits = null, CompactZstdDictionary? zstdDictionary = null)
        where T : ICompactSerializable<T>
    {
        limits ??= CompactLimits.Default;
        limits.Validate();
        var body = Body<T>(frame, limits, zstdDictionary, expectCollection: false, out var compression);
        try
        {
            var reader = new CompactReader(body.Span);
            return T.ReadFields(ref reader, limits, 0);
        }
        catch (CompactFormatException exception) when (CompactFrame.ScopeBodyOffset(exception, frame, body, compression))
        {
            throw;
        }
    }

    /// <summary>Reads a single-record frame from a byte sequence.</summary>
    /// <typeparam name="T">A <see cref="CompactSchemaAttribute"/> type.</typeparam>
    /// <param name="frame">The frame, in one or more segments.</param>
    /// <param name="limits">The limits.</param>
    /// <param name="zstdDictionary">The dictionary a zstd body was compressed with, if any.</param>
    /// <returns>The record.</returns>
    /// <exception cref="CompactFormatException">The frame is malformed, is a collection, or holds another type.</exception>
    public static T Deserialize<T>(ReadOnlySequence<byte> frame, CompactLimits? limits = null, CompactZstdDictionary? zstdDictionary = null)
        where T : ICompactSerializable<T> =>
        Deserialize<T>(frame.IsSingleSegment ? frame.First : frame.ToArray(), limits, zstdDictionary);

    /// <summary>Reads a collection frame.</summary>
    /// <typeparam name="T">A <see cref="CompactSchemaAttribute"/> type.</typeparam>
    /// <param name="frame">The frame.</param>
    /// <param name="limits">The limits.</param>
    /// <param name="zstdDictionary">The dictionary a zstd body was compressed with, if any.</param>
    /// <returns>The records.</returns>
    /// <exception cref="CompactFormatException">The frame is malformed, is not a collection, or holds another type.</exception>
    public static List<T> DeserializeMany<T>(ReadOnlyMemory<byte> frame, CompactLimits? limits = null, CompactZstdDictionary? zstdDictionary = null)
        where T : ICompactSerializable<T>
    {
        limits ??= CompactLimits.Default;
        limits.Validate();
        var body = Body<T>(frame, limits, zstdDictionary, expectCollection: true, out var compression);
        try
        {
            var reader = new CompactReader(body.Span);
            var count = reader.ReadCount(limits.MaxCollectionCount, 1);
            var values = new List<T>(count);
            for (var i = 0; i < count; i++)
            {
                // Each record of a collection is at depth 0, as a single frame's record is; its errors' paths start with [i].
                try
                {
                    var record = new CompactReader(reader.ReadLengthDelimited(out var start), start);
                    values.Add(T.ReadFields(ref record, limits, 0));
                }
                catch (CompactFormatException exception) when (exception.PrependPathAndPropagate(i))
                {
                    throw;
                }
            }

            CompactValues.ExpectEnd(ref reader);
            return values;
        }
        catch (CompactFormatException exception) when (CompactFrame.ScopeBodyOffset(exception, frame, body, compression))
        {
            throw;
        }
    }

    private static ReadOnlyMemory<byte> Body<T>(ReadOnlyMemory<byte> frame, CompactLimits limits, CompactZstdDictionary? zstdDictionary, bool expectCollection, out CompactCompression compression)
        where T : ICompactSerializable<T>
    {
        var body = CompactFrame.BodyOf(frame, limits, out var typeId, out var isCollection, out compression, zstdDictionary);
        if (typeId != T.TypeId)
        {
            CompactThrow.WrongRecordType(typeId, typeof(T).Name, T.TypeId);
        }

        if (isCollection != expectCollection)
        {
            CompactThrow.Frame(expectCollection ? "The frame holds a single record, not a collection." : "The frame holds a collection, not a single record.", 1);
        }

        return body;
    }
}
