using System.Diagnostics.CodeAnalysis;
using ZstdSharp;

namespace Millrace.Compact;

/// <summary>
/// A zstd dictionary trained on sample records. Small records share most of their bytes with each other (field keys,
/// repeated strings) but not within themselves, which is what a dictionary captures: with one, zstd compresses a
/// single record well below what deflate or Brotli can. Writer and reader must use the same dictionary; the zstd frame
/// names it by its id, so a frame read with another dictionary, or none, is reported rather than misread.
/// </summary>
[SuppressMessage("Naming", "CA1711:Identifiers should not have incorrect suffix", Justification = "zstd calls it a dictionary; it is not a collection.")]
public sealed class CompactZstdDictionary
{
    /// <summary>The largest dictionary <see cref="Train"/> makes unless told otherwise: 16 KiB.</summary>
    public const int DefaultMaxSize = 16 * 1024;

    private readonly byte[] _bytes;

    /// <summary>Initializes a dictionary from bytes made by <see cref="Train"/> (or by the <c>zstd --train</c> tool).</summary>
    /// <param name="bytes">The dictionary's bytes; copied.</param>
    public CompactZstdDictionary(ReadOnlySpan<byte> bytes)
    {
        if (bytes.IsEmpty)
        {
            throw new ArgumentException("A dictionary cannot be empty.", nameof(bytes));
        }

        _bytes = bytes.ToArray();
    }

    /// <summary>Gets the dictionary's bytes, to store beside the data it compresses.</summary>
    public ReadOnlyMemory<byte> Bytes => _bytes;

    /// <summary>Trains a dictionary on sample payloads, such as frames of typical records.</summary>
    /// <param name="samples">Sample payloads; zstd wants many (hundreds) for a useful dictionary.</param>
    /// <param name="maxSize">The dictionary's largest size in bytes.</param>
    /// <returns>The dictionary.</returns>
    /// <exception cref="ArgumentException">The samples are too few or too uniform to train on.</exception>
    public static CompactZstdDictionary Train(IEnumerable<byte[]> samples, int maxSize = DefaultMaxSize)
    {
        ArgumentNullException.ThrowIfNull(samples);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxSize, 256);
        try
        {
            return new CompactZstdDictionary(DictBuilder.TrainFromBuffer(samples, maxSize));
        }
        catch (ZstdException exception)
        {
            throw new ArgumentException($"zstd could not train a dictionary on these samples: {exception.Message}", nameof(samples), exception);
        }
    }
}
