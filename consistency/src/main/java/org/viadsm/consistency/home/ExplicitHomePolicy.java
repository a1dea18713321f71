package org.viadsm.consistency.home;

/**
 * Homes given page by page.
 */
public final class ExplicitHomePolicy implements HomePolicy
{
    private final int[] homes;

    /**
     * Creates the policy.
     *
     * @param homes the home of each page; not copied.
     */
    public ExplicitHomePolicy(final int[] homes)
    {
        this.homes = homes;
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public int home(final int page)
    {
        return homes[page];
    }
}
