using System.Globalization;

namespace Millrace.Parallel;

/// <summary>
/// Thrown by a <see cref="ErrorMode.CollectAndContinue"/> run once every item has finished, listing each
/// failed item in source order.
/// </summary>
public sealed class ParallelAggregateException : AggregateException
{
    /// <summary>Initializes a new instance listing <paramref name="failures"/>.</summary>
    /// <param name="failures">The failed items.</param>
    public ParallelAggregateException(IReadOnlyList<ParallelItemFailure> failures)
        : base(Summarize(failures), failures.Select(static f => f.Exception))
    {
        Failures = failures;
    }

    /// <summary>Initializes a new instance with no failures.</summary>
    public ParallelAggregateException()
        : this([])
    {
    }

    /// <summary>Initializes a new instance with a message and no failures.</summary>
    /// <param name="message">The message.</param>
    public ParallelAggregateException(string message)
        : base(message)
    {
        Failures = [];
    }

    /// <summary>Initializes a new instance with a message and an inner exception.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The inner exception.</param>
    public ParallelAggregateException(string message, Exception innerException)
        : base(message, innerException)
    {
        Failures = [];
    }

    /// <summary>Gets the failed items, in source order.</summary>
    public IReadOnlyList<ParallelItemFailure> Failures { get; }

    private static string Summarize(IReadOnlyList<ParallelItemFailure> failures)
    {
        const int Listed = 10;
        var indices = string.Join(", ", failures.Take(Listed).Select(static f => f.Index.ToString(CultureInfo.InvariantCulture)));
        var more = failures.Count > Listed ? string.Create(CultureInfo.InvariantCulture, $" and {failures.Count - Listed} more") : string.Empty;
        return string.Create(CultureInfo.InvariantCulture, $"{failures.Count} item(s) failed: items {indices}{more}.");
    }
}
