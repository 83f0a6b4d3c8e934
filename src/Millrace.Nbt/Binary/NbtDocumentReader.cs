namespace Millrace.Nbt.Binary;

/// <summary>
/// Reads a document from uncompressed NBT bytes, choosing the engine here and nowhere else: valid input is built in two
/// fast passes over a tape (<see cref="NbtTapeTreeBuilder"/>); input those passes do not accept is read again by
/// <see cref="NbtCheckingTreeReader"/>, which checks each tag as it goes and reports where the input went wrong. Both
/// give the same tree for the same valid bytes.
/// </summary>
internal static class NbtDocumentReader
{
    /// <summary>Reads a document.</summary>
    /// <param name="data">The uncompressed bytes.</param>
    /// <param name="options">The flavour and limits.</param>
    /// <returns>The document.</returns>
    /// <exception cref="NbtFormatException">The bytes are not a document of that flavour within the limits.</exception>
    public static NbtDocument Read(ReadOnlySpan<byte> data, NbtReaderOptions options) =>
        NbtTapeTreeBuilder.TryRead(data, options) ?? new NbtCheckingTreeReader(data, options).ReadDocument();
}
