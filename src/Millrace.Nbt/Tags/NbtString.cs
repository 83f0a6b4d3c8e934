namespace Millrace.Nbt.Tags;

/// <summary>A string tag.</summary>
public sealed class NbtString : NbtTag
{
    private string _value;

    /// <summary>Initializes a new instance.</summary>
    /// <param name="value">The string.</param>
    public NbtString(string value) => _value = value ?? throw new ArgumentNullException(nameof(value));

    /// <inheritdoc />
    public override NbtTagType Type => NbtTagType.String;

    /// <summary>Gets or sets the string.</summary>
    public string Value
    {
        get => _value;
        set => _value = value ?? throw new ArgumentNullException(nameof(value));
    }

    /// <inheritdoc />
    public override bool Equals(NbtTag? other) => other is NbtString tag && string.Equals(tag._value, _value, StringComparison.Ordinal);

    /// <inheritdoc />
    public override int GetHashCode() => StringComparer.Ordinal.GetHashCode(_value);
}
