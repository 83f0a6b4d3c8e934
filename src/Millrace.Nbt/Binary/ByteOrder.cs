using System.Buffers.Binary;
using System.Runtime.CompilerServices;

namespace Millrace.Nbt.Binary;

/// <summary>A flavour's byte order as a type argument, so a loop specialized for it tests nothing per value.</summary>
internal interface IByteOrder
{
    static abstract ushort ReadUInt16(ref byte at);

    static abstract int ReadInt32(ref byte at);

    static abstract long ReadInt64(ref byte at);
}

/// <summary>Java's byte order. The caller has checked that the bytes are there.</summary>
internal readonly struct BigEndian : IByteOrder
{
    public static ushort ReadUInt16(ref byte at)
    {
        var value = Unsafe.ReadUnaligned<ushort>(ref at);
        return BitConverter.IsLittleEndian ? BinaryPrimitives.ReverseEndianness(value) : value;
    }

    public static int ReadInt32(ref byte at)
    {
        var value = Unsafe.ReadUnaligned<int>(ref at);
        return BitConverter.IsLittleEndian ? BinaryPrimitives.ReverseEndianness(value) : value;
    }

    public static long ReadInt64(ref byte at)
    {
        var value = Unsafe.ReadUnaligned<long>(ref at);
        return BitConverter.IsLittleEndian ? BinaryPrimitives.ReverseEndianness(value) : value;
    }
}

/// <summary>Bedrock's byte order. The caller has checked that the bytes are there.</summary>
internal readonly struct LittleEndian : IByteOrder
{
    public static ushort ReadUInt16(ref byte at)
    {
        var value = Unsafe.ReadUnaligned<ushort>(ref at);
        return BitConverter.IsLittleEndian ? value : BinaryPrimitives.ReverseEndianness(value);
    }

    public static int ReadInt32(ref byte at)
    {
        var value = Unsafe.ReadUnaligned<int>(ref at);
        return BitConverter.IsLittleEndian ? value : BinaryPrimitives.ReverseEndianness(value);
    }

    public static long ReadInt64(ref byte at)
    {
        var value = Unsafe.ReadUnaligned<long>(ref at);
        return BitConverter.IsLittleEndian ? value : BinaryPrimitives.ReverseEndianness(value);
    }
}
