namespace Millrace.Cluster.CircuitBreaker;

/// <summary>
/// The documented defaults of <see cref="ClusterCircuitBreakerOptions"/> that Millrace.Parallel's breaker has no
/// counterpart for; the others are <see cref="Parallel.CircuitBreaker.CircuitBreakerConstants"/>.
/// </summary>
public static class ClusterCircuitBreakerConstants
{
    /// <summary>The default failure ratio of a silo's calls that opens its local breaker (the cluster's breaker always samples a ratio).</summary>
    /// <value>0.5.</value>
    public const double FailureRatio = 0.5;

    /// <summary>The default number of silos whose local breakers must be open to open the shared one.</summary>
    /// <value>2: one sick silo holds back only itself.</value>
    public const int QuorumSilos = 2;
}
