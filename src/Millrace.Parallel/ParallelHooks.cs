using Millrace.Parallel.CircuitBreaker;
using Millrace.Parallel.Retry;

namespace Millrace.Parallel;

/// <summary>
/// Callbacks a run invokes on its workers as items move through it. They run inline, so keep them short.
/// A hook that throws is ignored (and counted in <c>millrace.parallel.hook.errors</c>) unless
/// <see cref="PropagateExceptions"/> is set, in which case the run stops and throws that exception.
/// </summary>
public sealed record ParallelHooks
{
    /// <summary>Gets the callback invoked with an item's index before its first attempt.</summary>
    public Action<long>? OnStart { get; init; }

    /// <summary>Gets the callback invoked when an item succeeds.</summary>
    public Action<ItemCompleted>? OnComplete { get; init; }

    /// <summary>Gets the callback invoked when an item fails after its retries.</summary>
    public Action<ItemFailed>? OnError { get; init; }

    /// <summary>Gets the callback invoked with an item's index when the run stops before the item could finish or start.</summary>
    public Action<long>? OnCancel { get; init; }

    /// <summary>Gets the callback invoked before each retry's delay.</summary>
    public Action<RetryArguments>? OnRetry { get; init; }

    /// <summary>Gets the callback invoked when the circuit breaker changes state.</summary>
    public Action<CircuitStateChange>? OnCircuitStateChange { get; init; }

    /// <summary>Gets a value indicating whether a hook's exception stops the run and is thrown by the operator.</summary>
    /// <value>Default <see langword="false"/>: hook exceptions are ignored.</value>
    public bool PropagateExceptions { get; init; }
}
