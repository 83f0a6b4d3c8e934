using System.Runtime.CompilerServices;

namespace Millrace.Parallel;

// Task-returning and token-less selectors, so that a method returning Task<T>, or one that takes no token, can be
// passed as it is. Each overload adapts its delegate once per call to the ValueTask-and-token shape the run uses:
// one small object per call, nothing per item beyond what the caller's Task itself costs. An async lambda fits both
// a Task and a ValueTask delegate; the Task overloads have a lower OverloadResolutionPriority, so such a lambda keeps
// binding to the ValueTask overload, as it did before these overloads existed, instead of becoming ambiguous.
public static partial class ParallelOperators
{
    /// <inheritdoc cref="SelectParallelAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, Task<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelAsync(Adapt.FromTask(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelAsync(Adapt.WithoutToken(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, Task<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelAsync(Adapt.FromTaskWithoutToken(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, Task<TResult>> selector,
        Func<TSource, Exception, TResult> fallback,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelAsync(Adapt.FromTask(selector), fallback, options, cancellationToken);

    /// <inheritdoc cref="SelectParallelAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, Task<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelAsync(Adapt.FromTask(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelAsync(Adapt.WithoutToken(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, Task<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelAsync(Adapt.FromTaskWithoutToken(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static Task<TResult[]> SelectParallelAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, Task<TResult>> selector,
        Func<TSource, Exception, TResult> fallback,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelAsync(Adapt.FromTask(selector), fallback, options, cancellationToken);

    /// <inheritdoc cref="SelectParallelStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, Task<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelStreamAsync(Adapt.FromTask(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelStreamAsync(Adapt.WithoutToken(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, Task<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelStreamAsync(Adapt.FromTaskWithoutToken(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, Task<TResult>> selector,
        Func<TSource, Exception, TResult> fallback,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelStreamAsync(Adapt.FromTask(selector), fallback, options, cancellationToken);

    /// <inheritdoc cref="SelectParallelStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, Task<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelStreamAsync(Adapt.FromTask(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, ValueTask<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelStreamAsync(Adapt.WithoutToken(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, Task<TResult>> selector,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelStreamAsync(Adapt.FromTaskWithoutToken(selector), options, cancellationToken);

    /// <inheritdoc cref="SelectParallelStreamAsync{TSource, TResult}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask{TResult}}, Func{TSource, Exception, TResult}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static IAsyncEnumerable<TResult> SelectParallelStreamAsync<TSource, TResult>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, Task<TResult>> selector,
        Func<TSource, Exception, TResult> fallback,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.SelectParallelStreamAsync(Adapt.FromTask(selector), fallback, options, cancellationToken);

    /// <inheritdoc cref="ForEachParallelAsync{TSource}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static Task ForEachParallelAsync<TSource>(
        this IEnumerable<TSource> source,
        Func<TSource, CancellationToken, Task> body,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.ForEachParallelAsync(Adapt.FromTask(body), options, cancellationToken);

    /// <inheritdoc cref="ForEachParallelAsync{TSource}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask}, ParallelOperatorOptions?, CancellationToken)"/>
    public static Task ForEachParallelAsync<TSource>(
        this IEnumerable<TSource> source,
        Func<TSource, ValueTask> body,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.ForEachParallelAsync(Adapt.WithoutToken(body), options, cancellationToken);

    /// <inheritdoc cref="ForEachParallelAsync{TSource}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static Task ForEachParallelAsync<TSource>(
        this IEnumerable<TSource> source,
        Func<TSource, Task> body,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.ForEachParallelAsync(Adapt.FromTaskWithoutToken(body), options, cancellationToken);

    /// <inheritdoc cref="ForEachParallelAsync{TSource}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static Task ForEachParallelAsync<TSource>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, CancellationToken, Task> body,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.ForEachParallelAsync(Adapt.FromTask(body), options, cancellationToken);

    /// <inheritdoc cref="ForEachParallelAsync{TSource}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask}, ParallelOperatorOptions?, CancellationToken)"/>
    public static Task ForEachParallelAsync<TSource>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, ValueTask> body,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.ForEachParallelAsync(Adapt.WithoutToken(body), options, cancellationToken);

    /// <inheritdoc cref="ForEachParallelAsync{TSource}(IEnumerable{TSource}, Func{TSource, CancellationToken, ValueTask}, ParallelOperatorOptions?, CancellationToken)"/>
    [OverloadResolutionPriority(-1)]
    public static Task ForEachParallelAsync<TSource>(
        this IAsyncEnumerable<TSource> source,
        Func<TSource, Task> body,
        ParallelOperatorOptions? options = null,
        CancellationToken cancellationToken = default) =>
        source.ForEachParallelAsync(Adapt.FromTaskWithoutToken(body), options, cancellationToken);

    /// <summary>
    /// Turns the other delegate shapes into the run's. A null delegate is reported under the caller's parameter name,
    /// at call time, as the operators report everything else.
    /// </summary>
    private static class Adapt
    {
        public static Func<TSource, CancellationToken, ValueTask<TResult>> FromTask<TSource, TResult>(Func<TSource, CancellationToken, Task<TResult>> work, [CallerArgumentExpression(nameof(work))] string? name = null)
        {
            ArgumentNullException.ThrowIfNull(work, name);
            return (item, cancellationToken) => new ValueTask<TResult>(work(item, cancellationToken));
        }

        public static Func<TSource, CancellationToken, ValueTask<TResult>> WithoutToken<TSource, TResult>(Func<TSource, ValueTask<TResult>> work, [CallerArgumentExpression(nameof(work))] string? name = null)
        {
            ArgumentNullException.ThrowIfNull(work, name);
            return (item, _) => work(item);
        }

        public static Func<TSource, CancellationToken, ValueTask<TResult>> FromTaskWithoutToken<TSource, TResult>(Func<TSource, Task<TResult>> work, [CallerArgumentExpression(nameof(work))] string? name = null)
        {
            ArgumentNullException.ThrowIfNull(work, name);
            return (item, _) => new ValueTask<TResult>(work(item));
        }

        public static Func<TSource, CancellationToken, ValueTask> FromTask<TSource>(Func<TSource, CancellationToken, Task> work, [CallerArgumentExpression(nameof(work))] string? name = null)
        {
            ArgumentNullException.ThrowIfNull(work, name);
            return (item, cancellationToken) => new ValueTask(work(item, cancellationToken));
        }

        public static Func<TSource, CancellationToken, ValueTask> WithoutToken<TSource>(Func<TSource, ValueTask> work, [CallerArgumentExpression(nameof(work))] string? name = null)
        {
            ArgumentNullException.ThrowIfNull(work, name);
            return (item, _) => work(item);
        }

        public static Func<TSource, CancellationToken, ValueTask> FromTaskWithoutToken<TSource>(Func<TSource, Task> work, [CallerArgumentExpression(nameof(work))] string? name = null)
        {
            ArgumentNullException.ThrowIfNull(work, name);
            return (item, _) => new ValueTask(work(item));
        }
    }
}
