using System.ComponentModel;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Buffers;
using System.Globalization;
using Millrace.Nbt.Binary;
using Millrace.Nbt.Tags;

namespace Millrace.Nbt.Serialization;

/// <summary>Reads and writes <see cref="NbtSerializableAttribute"/> types without building a tree.</summary>
public static class NbtSerializer
{
    /// <summary>Reads a <typeparamref name="T"/> from NBT whose root is a compound, compressed or not.</summary>
    /// <typeparam name="T">An <see cref="NbtSerializableAttribute"/> type.</typeparam>
    /// <param name="data">The bytes.</param>
    /// <param name="options">The flavour and limits.</param>
    /// <returns>The instance.</returns>
    /// <exception cref="NbtFormatException">The input is malformed or does not fit <typeparamref name="T"/>.</exception>
    public static T Deserialize<T>(ReadOnlySpan<byte> data, NbtReaderOptions? options = null)
        where T : INbtSerializable<T>
    {
        options ??= NbtReaderOptions.Default;
        options.Validate();
        using var payload = NbtPayload.Open(data, options.MaxBytes);
        try
        {
            return ReadRoot<T>(payload.Bytes, options);
        }
        catch (NbtFormatException exception) when (payload.ScopeOffset(exception))
        {
            throw;
        }
    }

    /// <summary>Writes <paramref name="value"/> as a root compound.</summary>
    /// <typeparam name="T">An <see cref="NbtSerializableAttribute"/> type.</typeparam>
    /// <param name="value">The instance.</param>
    /// <param name="output">Where the bytes go; nothing is allocated when it is reused.</param>
    /// <param name="rootName">The root's name.</param>
    /// <param name="format">The flavour.</param>
    public static void Serialize<T>(T value, IBufferWriter<byte> output, string rootName = "", NbtFormat format = NbtFormat.Java)
        where T : INbtSerializable<T>
    {
        ArgumentNullException.ThrowIfNull(value);
        var writer = new NbtWriter(output, format);
        writer.WriteStartCompound(rootName);
        value.WriteNbtMembers(ref writer);
        writer.WriteEndCompound();
        writer.Flush();
    }

    /// <summary>Checks that the reader is on a value or container of <paramref name="expected"/>; used by generated code.</summary>
    /// <param name="reader">The reader.</param>
    /// <param name="expected">The member's tag type.</param>
    /// <param name="member">The member, for the error.</param>
    /// <exception cref="NbtFormatException">The tag has another type.</exception>
    [EditorBrowsable(EditorBrowsableState.Never)]
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Expect(ref NbtPullReader reader, NbtTagType expected, string member)
    {
        // Once per member read: the check inlined, the error built out of line.
        if (reader.TagType != expected)
        {
            ThrowWrongType(reader.TagType, expected, member, reader.BytesConsumed);
        }
    }

    /// <summary>Checks that a list holds <paramref name="expected"/> elements (an empty list may say End); used by generated code.</summary>
    /// <param name="reader">The reader, on a list's start.</param>
    /// <param name="expected">The element type.</param>
    /// <param name="member">The member, for the error.</param>
    /// <exception cref="NbtFormatException">The list holds another type.</exception>
    [EditorBrowsable(EditorBrowsableState.Never)]
    public static void ExpectElements(ref NbtPullReader reader, NbtTagType expected, string member)
    {
        Expect(ref reader, NbtTagType.List, member);
        if (reader.ListCount > 0 && reader.ListElementType != expected)
        {
            throw new NbtFormatException(NbtErrorCodes.Type, string.Create(CultureInfo.InvariantCulture, $"The list '{member}' holds {reader.ListElementType} tags; {expected} was expected."), reader.BytesConsumed);
        }
    }

    [DoesNotReturn]
    private static void ThrowWrongType(NbtTagType actual, NbtTagType expected, string member, long offset) =>
        throw new NbtFormatException(NbtErrorCodes.Type, string.Create(CultureInfo.InvariantCulture, $"The tag '{member}' is a {actual}; {expected} was expected."), offset);

    private static T ReadRoot<T>(ReadOnlySpan<byte> data, NbtReaderOptions options)
        where T : INbtSerializable<T>
    {
        var reader = new NbtPullReader(data, options);
        if (!reader.Read() || reader.Token != NbtToken.StartCompound)
        {
            throw new NbtFormatException(NbtErrorCodes.Type, "The root tag is not a compound.", 0);
        }

        var value = T.ReadNbt(ref reader);

        // Past the root's end: reaching the end of the input refuses bytes that follow it, as a tree read does.
        reader.Read();
        return value;
    }
}
