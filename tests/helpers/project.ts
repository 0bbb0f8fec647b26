// Tests use the same throwaway projects as the benchmarks.
export * from '../../scripts/lib/project.ts';
