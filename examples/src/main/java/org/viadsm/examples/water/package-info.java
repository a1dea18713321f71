/**
 * What the two WATER ports share, where the C programs WATER-NSQUARED and WATER-SPATIAL are the same: the input
 * deck and the velocities file ({@link org.viadsm.examples.water.WaterParameters},
 * {@link org.viadsm.examples.water.Velocities}), the derived constants
 * ({@link org.viadsm.examples.water.WaterSystem}), the molecule record and the global block in shared arrays
 * ({@link org.viadsm.examples.water.MoleculeLayout}, {@link org.viadsm.examples.water.GlobalLayout}), the
 * per-molecule physics (intramolecular forces and energy, Gear predictor-corrector, pair interactions, the lattice
 * and initial velocities), the time-step loop {@link org.viadsm.examples.water.MolecularDynamics} and the self-check
 * {@link org.viadsm.examples.water.EnergyCheck}.
 * <p>
 * Arithmetic follows the C code operation by operation (same association, same summation order, no fused
 * multiply-add), so a port prints the C program's digits. The elementary functions are Java's {@code Math}
 * ({@code sqrt} is exact in both; {@code exp}, {@code acos}, {@code pow}, {@code sin}, {@code cos} can differ from
 * glibc's in the last bit for some arguments); no printed digit has differed in the runs compared.
 */
package org.viadsm.examples.water;
