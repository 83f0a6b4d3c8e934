using System.Diagnostics.CodeAnalysis;

namespace Millrace;

/// <summary>
/// The outcome of an operation: either a value or an <see cref="Millrace.Error"/>. A readonly struct, so a
/// successful result costs no allocation; only failures allocate their error.
/// </summary>
/// <typeparam name="T">The type of the value.</typeparam>
public readonly struct Result<T> : IEquatable<Result<T>>
{
    private readonly T? _value;
    private readonly Error? _error;
    private readonly bool _isSuccess;

    private Result(T value)
    {
        _value = value;
        _error = null;
        _isSuccess = true;
    }

    private Result(Error error)
    {
        _value = default;
        _error = error;
        _isSuccess = false;
    }

    /// <summary>Gets a value indicating whether the result holds a value.</summary>
    public bool IsSuccess => _isSuccess;

    /// <summary>Gets a value indicating whether the result holds an error.</summary>
    public bool IsFailure => !_isSuccess;

    /// <summary>Gets the value.</summary>
    /// <exception cref="MillraceException">The result is a failure; the exception carries its error.</exception>
    public T Value => _isSuccess ? _value! : ThrowHelper.ThrowNoValue<T>(Error);

    /// <summary>Gets the error; <see cref="Error.Uninitialized"/> for a default-initialized result.</summary>
    /// <exception cref="InvalidOperationException">The result is a success.</exception>
    public Error Error => _isSuccess ? ThrowHelper.ThrowNoError() : _error ?? Error.Uninitialized;

    /// <summary>Creates a successful result.</summary>
    /// <param name="value">The value.</param>
    /// <returns>A result holding <paramref name="value"/>.</returns>
    public static Result<T> Success(T value) => new(value);

    /// <summary>Creates a failed result.</summary>
    /// <param name="error">What went wrong.</param>
    /// <returns>A result holding <paramref name="error"/>.</returns>
    public static Result<T> Failure(Error error) => new(error ?? throw new ArgumentNullException(nameof(error)));

    /// <summary>Converts a value into a successful result.</summary>
    /// <param name="value">The value.</param>
    public static implicit operator Result<T>(T value) => new(value);

    /// <summary>Converts an error into a failed result.</summary>
    /// <param name="error">The error.</param>
    public static implicit operator Result<T>(Error error) => Failure(error);

    /// <summary>Compares two results for equality of state, value and error.</summary>
    /// <param name="left">The first result.</param>
    /// <param name="right">The second result.</param>
    /// <returns><see langword="true"/> when both are equal.</returns>
    public static bool operator ==(Result<T> left, Result<T> right) => left.Equals(right);

    /// <summary>Compares two results for inequality.</summary>
    /// <param name="left">The first result.</param>
    /// <param name="right">The second result.</param>
    /// <returns><see langword="true"/> when they differ.</returns>
    public static bool operator !=(Result<T> left, Result<T> right) => !left.Equals(right);

    /// <summary>Gets the value when the result is a success.</summary>
    /// <param name="value">The value, or default when the result is a failure.</param>
    /// <returns><see langword="true"/> when the result is a success.</returns>
    public bool TryGetValue([MaybeNullWhen(false)] out T value)
    {
        value = _value!;
        return _isSuccess;
    }

    /// <summary>Gets the error when the result is a failure.</summary>
    /// <param name="error">The error, or <see langword="null"/> when the result is a success.</param>
    /// <returns><see langword="true"/> when the result is a failure.</returns>
    public bool TryGetError([NotNullWhen(true)] out Error? error)
    {
        error = _isSuccess ? null : _error ?? Error.Uninitialized;
        return !_isSuccess;
    }

    /// <summary>Gets the value, or <paramref name="fallback"/> when the result is a failure.</summary>
    /// <param name="fallback">The value to return for a failure.</param>
    /// <returns>The value or the fallback.</returns>
    public T GetValueOrDefault(T fallback) => _isSuccess ? _value! : fallback;

    /// <summary>Transforms the value of a success; a failure passes through unchanged.</summary>
    /// <typeparam name="TResult">The type of the transformed value.</typeparam>
    /// <param name="selector">The transformation.</param>
    /// <returns>The transformed result.</returns>
    public Result<TResult> Map<TResult>(Func<T, TResult> selector)
    {
        ArgumentNullException.ThrowIfNull(selector);
        return _isSuccess ? Result<TResult>.Success(selector(_value!)) : Result<TResult>.Failure(Error);
    }

    /// <inheritdoc />
    public bool Equals(Result<T> other) =>
        _isSuccess == other._isSuccess
        && EqualityComparer<T?>.Default.Equals(_value, other._value)
        && Equals(_error, other._error);

    /// <inheritdoc />
    public override bool Equals(object? obj) => obj is Result<T> other && Equals(other);

    /// <inheritdoc />
    public override int GetHashCode() => HashCode.Combine(_isSuccess, _value, _error);

    /// <summary>Formats the result as <c>Success(value)</c> or <c>Failure(error)</c>.</summary>
    /// <returns>The formatted result.</returns>
    public override string ToString() => _isSuccess ? $"Success({_value})" : $"Failure({Error})";
}
