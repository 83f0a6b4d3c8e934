namespace Millrace.Parallel.Fallback;

/// <summary>
/// The fallback step of the pipeline, outermost after retries: replaces the failure of an item whose attempts are
/// exhausted with the caller's value. A throwing fallback fails the item with the fallback's exception.
/// </summary>
/// <typeparam name="TSource">The item type.</typeparam>
/// <typeparam name="TResult">The result type.</typeparam>
internal sealed class FallbackStrategy<TSource, TResult>(Func<TSource, Exception, TResult> fallback)
{
    /// <summary>Gives the value that replaces the failure.</summary>
    /// <param name="item">The item.</param>
    /// <param name="error">Its last exception; replaced by the fallback's own when it throws.</param>
    /// <param name="value">The fallback value.</param>
    /// <returns>Whether the fallback produced a value.</returns>
    public bool TryHandle(TSource item, ref Exception error, out TResult value)
    {
        try
        {
            value = fallback(item, error);
            return true;
        }
#pragma warning disable CA1031 // A throwing fallback makes the item fail with the fallback's exception.
        catch (Exception fallbackError)
#pragma warning restore CA1031
        {
            error = fallbackError;
            value = default!;
            return false;
        }
    }
}
