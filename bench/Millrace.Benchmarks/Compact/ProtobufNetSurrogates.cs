using ProtoBuf;
using ProtoBuf.Meta;

namespace Millrace.Benchmarks.Compact;

/// <summary>
/// protobuf-net has no built-in encoding for <see cref="DateTimeOffset"/>; the user's <c>created_at</c> goes through
/// this surrogate (UTC ticks and the offset in minutes), as a protobuf-net user would write it.
/// </summary>
[ProtoContract]
public struct DateTimeOffsetSurrogate
{
    [ProtoMember(1)]
    public long UtcTicks { get; set; }

    [ProtoMember(2)]
    public short OffsetMinutes { get; set; }

    public static implicit operator DateTimeOffsetSurrogate(DateTimeOffset value) =>
        new() { UtcTicks = value.UtcTicks, OffsetMinutes = (short)value.Offset.TotalMinutes };

    public static implicit operator DateTimeOffset(DateTimeOffsetSurrogate value)
    {
        var offset = TimeSpan.FromMinutes(value.OffsetMinutes);
        return new DateTimeOffset(value.UtcTicks + offset.Ticks, offset);
    }
}

/// <summary>Registers the surrogates with protobuf-net's default model, once.</summary>
internal static class ProtobufNetSurrogates
{
    private static int _registered;

    public static void Register()
    {
        if (Interlocked.Exchange(ref _registered, 1) == 0)
        {
            RuntimeTypeModel.Default.Add(typeof(DateTimeOffset), false).SetSurrogate(typeof(DateTimeOffsetSurrogate));
        }
    }
}
