namespace Millrace.Cluster.Serialization;

/// <summary>
/// Core's <see cref="Error"/> as it travels between silos and is persisted: everything but <see cref="Error.Exception"/>,
/// which cannot cross machines (its type and message are already in <see cref="Error.Message"/>).
/// </summary>
[GenerateSerializer]
[Alias("millrace.error")]
internal struct ErrorSurrogate
{
    [Id(0)] public string Code;
    [Id(1)] public string Message;
    [Id(2)] public long? ItemIndex;
    [Id(3)] public long? ByteOffset;
    [Id(4)] public string? Path;
    [Id(5)] public string? OffsetScope;
}

/// <summary>Converts <see cref="Error"/> to and from <see cref="ErrorSurrogate"/> for Orleans.</summary>
[RegisterConverter]
internal sealed class ErrorSurrogateConverter : IConverter<Error, ErrorSurrogate>
{
    public Error ConvertFromSurrogate(in ErrorSurrogate surrogate) =>
        new(surrogate.Code, surrogate.Message) { ItemIndex = surrogate.ItemIndex, ByteOffset = surrogate.ByteOffset, OffsetScope = surrogate.OffsetScope, Path = surrogate.Path };

    public ErrorSurrogate ConvertToSurrogate(in Error value) => new()
    {
        Code = value.Code,
        Message = value.Message,
        ItemIndex = value.ItemIndex,
        ByteOffset = value.ByteOffset,
        OffsetScope = value.OffsetScope,
        Path = value.Path,
    };
}
