using System.Buffers.Binary;

namespace Millrace.Fuzz;

/// <summary>The damage a file meets on disk and on the wire, and the lies a crafted one tells: cuts, flips, lengths set to extremes.</summary>
internal sealed class Mutator(Random random)
{
    private static readonly uint[] Extremes = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF];

    public byte[] Mutate(byte[] seed)
    {
        var data = (byte[])seed.Clone();
        for (var rounds = 1 + random.Next(3); rounds > 0 && data.Length > 0; rounds--)
        {
            data = random.Next(6) switch
            {
                0 => data.AsSpan(0, random.Next(data.Length)).ToArray(),
                1 => Flip(data),
                2 => Extreme(data),
                3 => [.. data, .. RandomBytes(1 + random.Next(8))],
                4 => Repeat(data),
                _ => Overwrite(data),
            };
        }

        return data;
    }

    private byte[] Flip(byte[] data)
    {
        data[random.Next(data.Length)] ^= (byte)(1 << random.Next(8));
        return data;
    }

    private byte[] Extreme(byte[] data)
    {
        var value = Extremes[random.Next(Extremes.Length)];
        var at = random.Next(data.Length);
        Span<byte> bytes = stackalloc byte[4];
        if (random.Next(2) == 0)
        {
            BinaryPrimitives.WriteUInt32BigEndian(bytes, value);
        }
        else
        {
            BinaryPrimitives.WriteUInt32LittleEndian(bytes, value);
        }

        var width = new[] { 1, 2, 4 }[random.Next(3)];
        bytes[..Math.Min(width, data.Length - at)].CopyTo(data.AsSpan(at));
        return data;
    }

    private byte[] Repeat(byte[] data)
    {
        var start = random.Next(data.Length);
        var length = Math.Min(1 + random.Next(64), data.Length - start);
        return [.. data.AsSpan(0, start + length), .. data.AsSpan(start, length), .. data.AsSpan(start + length)];
    }

    private byte[] Overwrite(byte[] data)
    {
        var at = random.Next(data.Length);
        RandomBytes(Math.Min(1 + random.Next(4), data.Length - at)).CopyTo(data.AsSpan(at));
        return data;
    }

    private byte[] RandomBytes(int count)
    {
        var bytes = new byte[count];
        random.NextBytes(bytes);
        return bytes;
    }
}
