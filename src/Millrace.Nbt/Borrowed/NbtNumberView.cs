using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Millrace.Nbt.Borrowed;

/// <summary>
/// The numbers of an array or a list in a <see cref="NbtBorrowedDocument"/>, read in place: each one is decoded from
/// the input's bytes (big-endian in Java's flavours, little-endian in Bedrock's) when it is asked for, and
/// <see cref="CopyTo"/> converts them all in one vectorized pass. Valid while its document is not disposed.
/// </summary>
/// <typeparam name="T"><see cref="sbyte"/>, <see cref="short"/>, <see cref="int"/>, <see cref="long"/>, <see cref="float"/> or <see cref="double"/>.</typeparam>
public readonly struct NbtNumberView<T>
    where T : unmanaged
{
    private readonly ReadOnlyMemory<byte> _bytes;

    internal NbtNumberView(ReadOnlyMemory<byte> bytes, bool bigEndian)
    {
        _bytes = bytes;
        IsBigEndian = bigEndian;
    }

    /// <summary>Gets the number of values.</summary>
    public int Count => _bytes.Length / Unsafe.SizeOf<T>();

    /// <summary>Gets the values' bytes as the input has them, in <see cref="IsBigEndian"/> byte order.</summary>
    public ReadOnlyMemory<byte> Bytes => _bytes;

    /// <summary>Gets a value indicating whether <see cref="Bytes"/> are big-endian (Java) rather than little-endian (Bedrock).</summary>
    public bool IsBigEndian { get; }

    /// <summary>Gets the value at <paramref name="index"/>.</summary>
    /// <param name="index">From 0 to <see cref="Count"/> - 1.</param>
    /// <returns>The value.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is outside the view.</exception>
    public T this[int index]
    {
        get
        {
            ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)index, (uint)Count, nameof(index));
            var value = Unsafe.ReadUnaligned<T>(ref Unsafe.Add(ref MemoryMarshal.GetReference(_bytes.Span), index * Unsafe.SizeOf<T>()));
            return IsBigEndian == BitConverter.IsLittleEndian ? Reverse(value) : value;
        }
    }

    /// <summary>Copies every value into <paramref name="destination"/>, in the machine's byte order.</summary>
    /// <param name="destination">At least <see cref="Count"/> values long.</param>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is too short.</exception>
    public void CopyTo(Span<T> destination)
    {
        if (destination.Length < Count)
        {
            throw new ArgumentException($"The destination holds {destination.Length} values; the view has {Count}.", nameof(destination));
        }

        Convert(_bytes.Span, IsBigEndian, destination);
    }

    /// <summary>Gets the values ready to use from the bytes of an array or a list of numbers: the tree's read and the view's copy.</summary>
    /// <param name="bytes">The values' bytes, a whole number of them.</param>
    /// <param name="bigEndian">Whether the bytes are big-endian (Java) rather than little-endian (Bedrock).</param>
    /// <param name="destination">At least as many values long.</param>
    internal static void Convert(ReadOnlySpan<byte> bytes, bool bigEndian, Span<T> destination)
    {
        var source = MemoryMarshal.Cast<byte, T>(bytes);
        destination = destination[..source.Length];
        if (bigEndian != BitConverter.IsLittleEndian || Unsafe.SizeOf<T>() == 1)
        {
            source.CopyTo(destination);
            return;
        }

        switch (Unsafe.SizeOf<T>())
        {
            case 2:
                BinaryPrimitives.ReverseEndianness(MemoryMarshal.Cast<T, ushort>(source), MemoryMarshal.Cast<T, ushort>(destination));
                break;
            case 4:
                BinaryPrimitives.ReverseEndianness(MemoryMarshal.Cast<T, uint>(source), MemoryMarshal.Cast<T, uint>(destination));
                break;
            default:
                BinaryPrimitives.ReverseEndianness(MemoryMarshal.Cast<T, ulong>(source), MemoryMarshal.Cast<T, ulong>(destination));
                break;
        }
    }

    /// <summary>Copies every value into a new array, in the machine's byte order.</summary>
    /// <returns>The values.</returns>
    public T[] ToArray()
    {
        var values = new T[Count];
        CopyTo(values);
        return values;
    }

    /// <summary>Gets an enumerator over the values.</summary>
    /// <returns>The enumerator.</returns>
    public Enumerator GetEnumerator() => new(this);

    private static T Reverse(T value) => Unsafe.SizeOf<T>() switch
    {
        2 => Unsafe.BitCast<ushort, T>(BinaryPrimitives.ReverseEndianness(Unsafe.BitCast<T, ushort>(value))),
        4 => Unsafe.BitCast<uint, T>(BinaryPrimitives.ReverseEndianness(Unsafe.BitCast<T, uint>(value))),
        8 => Unsafe.BitCast<ulong, T>(BinaryPrimitives.ReverseEndianness(Unsafe.BitCast<T, ulong>(value))),
        _ => value,
    };

    /// <summary>Enumerates the values of a <see cref="NbtNumberView{T}"/>.</summary>
    public struct Enumerator
    {
        private readonly NbtNumberView<T> _view;
        private int _index;

        internal Enumerator(NbtNumberView<T> view)
        {
            _view = view;
            _index = -1;
        }

        /// <summary>Gets the current value.</summary>
        public readonly T Current => _view[_index];

        /// <summary>Moves to the next value.</summary>
        /// <returns><see langword="false"/> after the last.</returns>
        public bool MoveNext() => ++_index < _view.Count;
    }
}
