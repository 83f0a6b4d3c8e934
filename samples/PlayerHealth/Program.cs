// Reads a player's health from a gzipped player file (playerdata/<uuid>.dat) without building a tree: the pull
// reader walks the bytes and skips every compound and list it does not need, allocating nothing.
using Millrace.Nbt;
using Millrace.Nbt.Binary;

var path = args.Length > 0 ? args[0] : Path.Combine(AppContext.BaseDirectory, "player.dat");
var file = File.ReadAllBytes(path);
using var raw = NbtCompressionCodec.Decompress(file, NbtCompressionCodec.Detect(file), maxBytes: 64 << 20);

if (ReadHealth(raw.WrittenSpan) is { } health)
{
    Console.WriteLine($"{Path.GetFileName(path)}: Health = {health}");
}
else
{
    Console.WriteLine($"{Path.GetFileName(path)} has no Health tag");
}

static float? ReadHealth(ReadOnlySpan<byte> nbt)
{
    try
    {
        var reader = new NbtPullReader(nbt);
        reader.Read();                                              // the root compound
        while (reader.Read() && reader.Depth > 0)
        {
            if (reader.Token == NbtToken.Value && reader.NameEquals("Health"u8))
            {
                return reader.GetFloat();
            }

            reader.Skip();                                          // inventory, abilities…: not even looked at
        }

        return null;
    }
    catch (NbtFormatException exception)
    {
        Console.Error.WriteLine($"not a player file: {exception.Message}");   // reason, byte offset, tag path
        return null;
    }
}
