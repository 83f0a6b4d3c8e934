using Millrace.Nbt;

namespace Millrace.Cli.Formats;

/// <summary>A file's content between reading one format and writing another: an NBT file, or JSON.</summary>
internal abstract record FileValue;

/// <summary>An NBT tree with the flavour and compression it was stored in.</summary>
/// <param name="File">The file.</param>
internal sealed record NbtValue(NbtFile File) : FileValue;

/// <summary>Well-formed JSON, as UTF-8.</summary>
/// <param name="Utf8">The JSON text.</param>
internal sealed record JsonValue(byte[] Utf8) : FileValue;
