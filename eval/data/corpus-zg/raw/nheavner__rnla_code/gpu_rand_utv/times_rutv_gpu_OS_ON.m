% block size was 128 
 
% the ROWS of the matrix t_rutv_gpu correspond to the values of q in ascending order (i.e. 1st row is q=0) 
 
 n_rutv_gpu = [ 
2000 3000 4000 5000 6000 8000 10000 12000 15000 18000]; 
 
t_rutv_gpu_os = [ 
6.90e-01 1.32e+00 2.20e+00 3.32e+00 4.86e+00 9.18e+00 1.55e+01 2.38e+01 4.25e+01 6.89e+01; 
8.06e-01 1.50e+00 2.58e+00 3.97e+00 5.85e+00 1.11e+01 1.88e+01 2.95e+01 5.28e+01 8.62e+01; 
7.96e-01 1.56e+00 2.69e+00 4.18e+00 6.16e+00 1.18e+01 2.01e+01 3.18e+01 5.66e+01 9.34e+01; 
]; 
